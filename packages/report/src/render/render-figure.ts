import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
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

/** The files of DejaVu Sans: regular, bold, oblique, bold oblique, extra light. */
const DEJAVU_SANS_FILE = /^DejaVuSans(-[A-Za-z]+)?\.ttf$/;

/** The folders fonts are installed in on Linux (XDG), macOS and Windows. */
function fontFolders(): string[] {
  const home = homedir();
  const dataHome = process.env.XDG_DATA_HOME ?? join(home, '.local', 'share');
  const dataDirs = (process.env.XDG_DATA_DIRS ?? '/usr/local/share:/usr/share').split(':');
  const folders = [
    join(home, '.fonts'),
    ...[dataHome, ...dataDirs].filter((dir) => dir !== '').map((dir) => join(dir, 'fonts')),
    '/Library/Fonts',
    '/System/Library/Fonts',
    join(home, 'Library', 'Fonts'),
    join(process.env.WINDIR ?? 'C:\\Windows', 'Fonts'),
  ];
  return [...new Set(folders)];
}

/** The names of a folder's files, all levels down; none for a folder that cannot be read. */
function filesUnder(folder: string): string[] {
  try {
    return readdirSync(folder, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
}

/**
 * The DejaVu Sans font files installed (regular, bold, oblique, …; not DejaVu Sans Mono or
 * Condensed), the first found of each name.
 *
 * @param folders - where to look, by default the system's font folders
 */
export function dejaVuSansFiles(folders: readonly string[] = fontFolders()): string[] {
  const byName = new Map<string, string>();
  for (const folder of folders) {
    for (const entry of filesUnder(folder)) {
      const name = basename(entry);
      if (DEJAVU_SANS_FILE.test(name) && !byName.has(name)) byName.set(name, join(folder, entry));
    }
  }
  return [...byName.values()];
}

/** resvg's font options: which fonts it loads, and the family of `sans-serif` text. */
export type PngFonts = NonNullable<ResvgRenderOptions['font']>;

/**
 * The fonts the PNG figures are drawn with: DejaVu Sans's files alone when there are any (resvg
 * then reads those few files per figure instead of scanning every system font), else every
 * system font, resvg choosing a sans-serif one.
 *
 * @param dejaVuSans - DejaVu Sans's font files ({@link dejaVuSansFiles})
 */
export function pngFonts(dejaVuSans: readonly string[]): PngFonts {
  const fonts =
    dejaVuSans.length > 0
      ? { loadSystemFonts: false, fontFiles: [...dejaVuSans] }
      : { loadSystemFonts: true };
  return { ...fonts, defaultFontFamily: PNG_SANS_SERIF, sansSerifFamily: PNG_SANS_SERIF };
}

/** The PNG figures' fonts, looked up on the first figure a process draws. */
let processPngFonts: PngFonts | undefined;

/**
 * A figure's SVG (from {@link renderSvg}) as a PNG image of the same size in pixels, drawn by
 * resvg (no browser, no system library: resvg is a prebuilt binary) in DejaVu Sans, else in
 * another installed font ({@link pngFonts}; the fonts are looked up once per process). Text
 * needs a font installed on the system; without any, the PNG has no text.
 *
 * @param svg - the SVG text
 * @returns the PNG file's bytes
 */
export function renderPng(svg: string): Buffer {
  processPngFonts ??= pngFonts(dejaVuSansFiles());
  return new Resvg(svg, { font: processPngFonts }).render().asPng();
}

/** The path of Vega's browser bundle (`vega/build/vega.min.js`), which the page loads. */
export function vegaBrowserBundle(): string {
  // vega's exports map names only its module build; the browser bundle sits beside it.
  return join(dirname(fileURLToPath(import.meta.resolve('vega'))), 'vega.min.js');
}
