import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** The path of Vega's browser bundle (`vega/build/vega.min.js`), which the page loads. */
export function vegaBrowserBundle(): string {
  // vega's exports map names only its module build; the browser bundle sits beside it.
  return join(dirname(fileURLToPath(import.meta.resolve('vega'))), 'vega.min.js');
}
