import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@partonfit/io';
import type { DataRow, ReportFigure } from '../figures/report-figure.js';
import { htmlPage } from '../render/html-page.js';
import { compileFigure, renderSvg, vegaBrowserBundle } from '../render/render-figure.js';
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
 * by Vega in Node from the same specifications, `data/<id>.json` and `data/<id>.csv` with the
 * numbers behind each figure, and `report.json` with the sections' tables and notes. Every file
 * is written atomically.
 */
export async function writeReport(report: Report, folder: string): Promise<WrittenReport> {
  await mkdir(join(folder, 'figures'), { recursive: true });
  await mkdir(join(folder, 'data'), { recursive: true });
  const figures = report.sections.flatMap((section) => section.figures);
  const specs: Record<string, ReturnType<typeof compileFigure>> = {};
  for (const figure of figures) {
    specs[figure.id] = compileFigure(figure);
    await writeFileAtomic(join(folder, 'figures', `${figure.id}.svg`), await renderSvg(figure));
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
  const index = join(folder, 'index.html');
  await writeFileAtomic(index, htmlPage(report.title, report.sections, specs));
  return { folder, index, figures: figures.map((figure) => figure.id) };
}
