import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { PartonfitError } from '@partonfit/core';
import { BACKEND_REQUESTS, initBackend, type BackendRequest } from '@partonfit/backend';
import { buildReport, writeReport } from '@partonfit/report';
import { fitBackendRequest } from '@partonfit/trainer';
import { defineCommand } from './define-command.js';
import { backendOption } from './option-values.js';

/**
 * The backend to rebuild the fit's replicas on: `--backend`, else the one that trained the fit;
 * `auto` when that cannot be read (the report then says which replicas it could not rebuild).
 */
async function reportBackend(
  fitFolder: string,
  requested: BackendRequest | undefined,
): Promise<BackendRequest> {
  if (requested !== undefined) return requested;
  try {
    return await fitBackendRequest(fitFolder);
  } catch (error) {
    if (PartonfitError.isInstance(error)) return 'auto';
    throw error;
  }
}

const USAGE = `partonfit report <fit folder> [--compare <LHAPDF set folder | fit folder>]… [--output <folder>] [--replica-curves] [--open] [--backend ${BACKEND_REQUESTS.join('|')}]`;

/**
 * `partonfit report <fit>`: the fit's report folder (default `<fit>/report`): `index.html`
 * (offline, `vega.min.js` beside it), every figure as SVG, the numbers behind each figure as
 * JSON and CSV. `--compare` adds LHAPDF sets or fit folders to the χ² table and the PDF figures;
 * the first is the ratios' reference; `--replica-curves` draws every replica in the PDF figures
 * (with a checkbox in the page). The fit's replicas are evaluated on `--backend`, by
 * default the one that trained it. What cannot be shown is listed, not fatal.
 */
export const reportCommand = defineCommand({
  name: 'report',
  summary: 'an offline HTML report of a fit: PDFs, χ² per dataset, data and theory, training',
  usage: USAGE,
  options: {
    compare: { type: 'string', multiple: true },
    output: { type: 'string' },
    'replica-curves': { type: 'boolean', default: false },
    open: { type: 'boolean', default: false },
    backend: { type: 'string' },
  },
  positionals: 1,
  run: async ({ values, positionals: [fitFolder] }, terminal) => {
    await initBackend(await reportBackend(fitFolder, backendOption(values.backend)));
    const report = await buildReport(fitFolder, {
      compare: values.compare ?? [],
      replicaCurves: values['replica-curves'],
    });
    const written = await writeReport(report, resolve(values.output ?? join(fitFolder, 'report')));
    for (const problem of report.problems) terminal.out(`not shown: ${problem}\n`);
    terminal.out(
      `report of ${report.fit}: ${report.sections.map((section) => section.id).join(', ')}; ${written.figures.length} figures\n${written.index}\n`,
    );
    if (values.open) {
      const opener = spawn('xdg-open', [written.index], { detached: true, stdio: 'ignore' });
      opener.on('error', () => {
        terminal.out(`--open: no xdg-open here; open ${written.index} in a browser\n`);
      });
      opener.unref();
    }
  },
});
