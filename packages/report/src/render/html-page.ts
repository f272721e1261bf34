import type { Spec } from 'vega';
import type { ReportFigure } from '../figures/report-figure.js';

/** A table of a report section. */
export interface ReportTable {
  readonly id: string;
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number)[])[];
}

/** A section of a report: what it shows and why not more. */
export interface ReportSection {
  readonly id: string;
  readonly title: string;
  /** Sentences shown above the tables and figures (set notes, what is missing). */
  readonly notes: readonly string[];
  readonly tables: readonly ReportTable[];
  readonly figures: readonly ReportFigure[];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function cell(value: string | number): string {
  if (typeof value === 'string') return escapeHtml(value);
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? String(value) : value.toPrecision(5);
}

function tableHtml(table: ReportTable): string {
  const head = table.columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('');
  const body = table.rows
    .map((row) => `<tr>${row.map((value) => `<td>${cell(value)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="wide"><table id="table-${table.id}"><caption>${escapeHtml(table.title)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function figureHtml(figure: ReportFigure): string {
  const files = [
    `figures/${figure.id}.svg`,
    `figures/${figure.id}.png`,
    `data/${figure.id}.json`,
    `data/${figure.id}.csv`,
  ]
    .map((file) => `<a href="${file}">${file.split('.').pop() ?? ''}</a>`)
    .join(' · ');
  return `<figure id="figure-${figure.id}"><h3>${escapeHtml(figure.title)}</h3><div class="view wide" data-figure="${figure.id}" data-series="${figure.series.length}" data-panels="${figure.panels.length}"></div><figcaption>${escapeHtml(figure.caption)} ${files}</figcaption></figure>`;
}

function sectionHtml(section: ReportSection): string {
  const notes = section.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('\n');
  return [
    `<section id="${section.id}"><h2>${escapeHtml(section.title)}</h2>`,
    notes,
    ...section.tables.map(tableHtml),
    ...section.figures.map(figureHtml),
    '</section>',
  ].join('\n');
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1em 2em;color:#222}
h1{margin-bottom:0}nav a{margin-right:1em}section{border-top:1px solid #ddd;margin-top:2em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ddd;padding:2px 8px;text-align:right}
th{background:#f4f4f4}caption{text-align:left;font-weight:600;padding:4px 0}
.note{color:#555;margin:.3em 0}figure{margin:1.5em 0}figcaption{color:#555;max-width:60em}
.error{color:#b00}.wide{overflow-x:auto;max-width:100%}`;

/**
 * Draws every figure with Vega from the compiled specifications; marks the page
 * `data-rendered="<count>"` when all are drawn (`data-rendered-after-ms`: since navigation
 * started) and records failures in `data-errors`, and the page's width then
 * (`data-scroll-width`: wider than the window means a horizontal scroll bar; wide tables and
 * figures scroll inside their own box instead).
 */
const SCRIPT = `(async () => {
  const specs = JSON.parse(document.getElementById('specs').textContent);
  const errors = [];
  let rendered = 0;
  for (const element of document.querySelectorAll('.view')) {
    const start = performance.now();
    try {
      const view = new vega.View(vega.parse(specs[element.dataset.figure]), {
        renderer: 'svg', container: element, hover: true,
      });
      await view.runAsync();
      element.dataset.drawn = 'true';
      element.dataset.drawnInMs = String(Math.round(performance.now() - start));
      rendered++;
    } catch (error) {
      errors.push(element.dataset.figure + ': ' + error);
      element.innerHTML = '<p class="error">' + String(error) + '</p>';
      console.error(error);
    }
  }
  document.body.dataset.errors = String(errors.length);
  document.body.dataset.rendered = String(rendered);
  document.body.dataset.renderedAfterMs = String(Math.round(performance.now()));
  document.body.dataset.scrollWidth = String(document.documentElement.scrollWidth);
})();`;

/**
 * The report's `index.html`: every section with its tables, and each figure drawn in the page
 * by Vega (`vega.min.js` beside the page: no network) from its compiled specification.
 */
export function htmlPage(
  title: string,
  sections: readonly ReportSection[],
  specs: Readonly<Record<string, Spec>>,
): string {
  const nav = sections
    .map((section) => `<a href="#${section.id}">${escapeHtml(section.title)}</a>`)
    .join('');
  const json = JSON.stringify(specs).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
<script src="vega.min.js"></script></head>
<body>
<h1>${escapeHtml(title)}</h1>
<nav>${nav}</nav>
${sections.map(sectionHtml).join('\n')}
<script type="application/json" id="specs">${json}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
