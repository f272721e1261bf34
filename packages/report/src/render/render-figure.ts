import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { parse, View, type Spec } from 'vega';
import { compile } from 'vega-lite';
import type { ReportFigure } from '../figures/report-figure.js';

/** A figure's Vega-Lite specification compiled to Vega, as the page and the SVG render it. */
export function compileFigure(figure: ReportFigure): Spec {
  return compile(figure.spec).spec;
}

/** A figure rendered to SVG text by Vega in Node, from the same compiled specification. */
export async function renderSvg(figure: ReportFigure): Promise<string> {
  const view = new View(parse(compileFigure(figure)), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * The family drawn for the figures' `sans-serif` text in PNG files: DejaVu Sans, which Linux
 * systems with fonts have; where it is missing, resvg falls back to another installed font.
 */
const PNG_SANS_SERIF = 'DejaVu Sans';

/**
 * A figure's SVG (from {@link renderSvg}) as a PNG image of the same size in pixels, drawn by
 * resvg with the system's fonts (no browser, no system library: resvg is a prebuilt binary).
 * Text needs a font installed on the system; without any, the PNG has no text.
 *
 * @param svg - the SVG text
 * @returns the PNG file's bytes
 */
export function renderPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    font: {
      loadSystemFonts: true,
      defaultFontFamily: PNG_SANS_SERIF,
      sansSerifFamily: PNG_SANS_SERIF,
    },
  });
  return resvg.render().asPng();
}

/** The path of Vega's browser bundle (`vega/build/vega.min.js`), which the page loads. */
export function vegaBrowserBundle(): string {
  // vega's exports map names only its module build; the browser bundle sits beside it.
  return join(dirname(fileURLToPath(import.meta.resolve('vega'))), 'vega.min.js');
}
