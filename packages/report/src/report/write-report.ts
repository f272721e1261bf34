import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { writeFileAtomic } from '@partonfit/io';
import type { DataRow, ReportFigure } from '../figures/report-figure.js';
import { htmlPage } from '../render/html-page.js';
import { compileFigure, renderPng, renderSvg, vegaBrowserBundle } from '../render/render-figure.js';
import type { Report } from './build-report.js';

function csvValue(value: DataRow[string] | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A figure's rows as CSV: one column per key that any row has, in first-seen order. */
export function figureCsv(figure: ReportFigure): string {
  const columns = [...new Set(figure.rows.flatMap((row) => Object.keys(row)))];
  const lines = figure.rows.map((row) => columns.map((column) => csvValue(row[column])).join(','));
  return `${[columns.join(','), ...lines].join('\n')}\n`;
}

/** What {@link writeReport} wrote. */
export interface WrittenReport {
  readonly folder: string;
  readonly index: string;
  readonly figures: readonly string[];
}

/**
 * Writes a report folder that works offline: `index.html` with `vega.min.js` beside it (the
 * figures are drawn in the page from their compiled specifications), `figures/<id>.svg` rendered
 * by Vega in Node from the same specifications and `figures/<id>.png` drawn from that SVG at its
 * size (for slides), `data/<id>.json` and `data/<id>.csv` with the numbers behind each figure,
 * and `report.json` with the sections' tables and notes.
 *
 * The report is built in a temporary folder beside `folder` and renamed into place, replacing an
 * earlier report there (so no figure of an earlier report stays behind, and a failed write
 * leaves the earlier report whole). A folder that holds anything but a report is refused.
 *
 * @throws InputFileError naming `folder` when it exists, is not empty and has no `report.json`
 */
export async function writeReport(report: Report, folder: string): Promise<WrittenReport> {
  await checkReportFolder(folder);
  const built = join(dirname(folder), `.${basename(folder)}-${randomBytes(6).toString('hex')}`);
  try {
    const figures = await writeReportFiles(report, built);
    await replaceFolder(built, folder);
    return { folder, index: join(folder, 'index.html'), figures };
  } finally {
    await rm(built, { recursive: true, force: true });
  }
}

/** Refuses an existing folder that is not empty and is not a report. */
async function checkReportFolder(folder: string): Promise<void> {
  const entries = await readdir(folder).catch((): string[] => []);
  if (entries.length > 0 && !entries.includes('report.json')) {
    throw new InputFileError({
      file: folder,
      problem: 'holds files but no report.json: not a report folder; choose another output folder',
    });
  }
}

/** Puts the folder `built` in the place of `target`, removing an earlier `target`. */
async function replaceFolder(built: string, target: string): Promise<void> {
  const old = `${built}-old`;
  const hadOld = await rename(target, old).then(
    () => true,
    () => false,
  );
  await rename(built, target);
  if (hadOld) await rm(old, { recursive: true, force: true });
}

/** Writes every file of the report into `folder` and returns the figures' ids. */
async function writeReportFiles(report: Report, folder: string): Promise<string[]> {
  await mkdir(join(folder, 'figures'), { recursive: true });
  await mkdir(join(folder, 'data'), { recursive: true });
  const figures = report.sections.flatMap((section) => section.figures);
  const specs: Record<string, ReturnType<typeof compileFigure>> = {};
  for (const figure of figures) {
    specs[figure.id] = compileFigure(figure);
    const svg = await renderSvg(figure);
    await writeFileAtomic(join(folder, 'figures', `${figure.id}.svg`), svg);
    await writeFileAtomic(join(folder, 'figures', `${figure.id}.png`), renderPng(svg));
    await writeFileAtomic(
      join(folder, 'data', `${figure.id}.json`),
      `${JSON.stringify({ id: figure.id, title: figure.title, rows: figure.rows })}\n`,
    );
    await writeFileAtomic(join(folder, 'data', `${figure.id}.csv`), figureCsv(figure));
  }
  await copyFile(vegaBrowserBundle(), join(folder, 'vega.min.js'));
  const summary = {
    title: report.title,
    fit: report.fit,
    problems: report.problems,
    sections: report.sections.map((section) => ({
      id: section.id,
      title: section.title,
      notes: section.notes,
      tables: section.tables,
      figures: section.figures.map((figure) => ({
        id: figure.id,
        title: figure.title,
        series: figure.series,
        panels: figure.panels,
      })),
    })),
  };
  await writeFileAtomic(join(folder, 'report.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await writeFileAtomic(join(folder, 'index.html'), htmlPage(report.title, report.sections, specs));
  return figures.map((figure) => figure.id);
}
