import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, PartonfitError } from '@partonfit/core';
import { BACKEND_REQUESTS, initBackend, type BackendRequest } from '@partonfit/backend';
import {
  buildReport,
  buildScanReport,
  checkReportScales,
  holdsScanTrials,
  isSameScale,
  writeReport,
  type PdfEvolution,
  type Report,
  type WrittenReport,
} from '@partonfit/report';
import { readFitReplicasAtQ0 } from '@partonfit/fit-folder';
import { fitBackendRequest } from '@partonfit/trainer';
import { defineCommand, UsageError } from './define-command.js';
import { evolutionOperatorWithProgress, orderAndMethod } from './evolution-operator.js';
import { DEFAULT_THRESHOLD_KNOTS } from './evolve-command.js';
import { runcardTheoryCard } from './evolve-theory.js';
import { backendOption, scalesOption } from './option-values.js';
import type { Terminal } from './terminal.js';

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

const USAGE = `partonfit report <fit folder | scan folder> [--q <Q in GeV>,…] [--compare <LHAPDF set folder | fit folder>]… [--output <folder>] [--replica-curves] [--open] [--backend ${BACKEND_REQUESTS.join('|')}]`;

/**
 * The fit's own Q0, its exportgrids' scale, or undefined when its replicas do not read (the
 * report then says why it draws no PDFs).
 */
async function fitQ0(folder: string): Promise<number | undefined> {
  try {
    return (await readFitReplicasAtQ0(folder)).q0;
  } catch (error) {
    if (PartonfitError.isInstance(error)) return undefined;
    throw error;
  }
}

/**
 * How `--q` evolves the fit: not at all when every scale is the fit's own Q0 (its exportgrids'
 * scale, which needs no theory card), else with the theory card its runcard names, the
 * threshold knots and the cached operator of `partonfit evolve`, the operator's build shown on
 * standard error.
 *
 * @throws UsageError naming `--q` for a scale other than the fit's Q0 when the runcard names no
 *   theory card or one of another Q0, or for a scale below the fit's Q0 or above the card's
 *   evolution grid
 */
async function reportEvolution(
  folder: string,
  scales: readonly number[],
  terminal: Terminal,
): Promise<PdfEvolution | undefined> {
  const q0 = await fitQ0(folder);
  if (q0 === undefined || scales.every((q) => isSameScale(q, q0))) return undefined;
  const card = await runcardTheoryCard(folder);
  if (card === undefined) {
    throw new UsageError(
      `--q: the PDFs are evolved to other scales with the fit's theory card: set evolution.theory_card in ${join(folder, 'runcard.yml')}`,
    );
  }
  try {
    checkReportScales(scales, q0, card, '--q');
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
  return {
    card,
    thresholdKnots: DEFAULT_THRESHOLD_KNOTS,
    operator: (options) => {
      terminal.out(
        `evolving the PDFs from Q0 = ${card.q0} GeV to Q = ${options.qGrid.join(', ')} GeV with ${card.file} at ${orderAndMethod(card)}\n`,
      );
      return evolutionOperatorWithProgress(
        card,
        options,
        { useCache: true, command: 'report' },
        terminal,
      );
    },
  };
}

/** Prints what the report could not show, its sections and figures, and where its page is. */
function describeReport(
  kind: string,
  report: Report,
  written: WrittenReport,
  terminal: Terminal,
): void {
  for (const problem of report.problems) terminal.out(`not shown: ${problem}\n`);
  terminal.out(
    `${kind} of ${report.fit}: ${report.sections.map((section) => section.id).join(', ')}; ${written.figures.length} figures\n${written.index}\n`,
  );
}

/** Opens the page with `xdg-open`, or says where it is when there is none. */
function openPage(index: string, terminal: Terminal): void {
  const opener = spawn('xdg-open', [index], { detached: true, stdio: 'ignore' });
  opener.on('error', () => {
    terminal.out(`--open: no xdg-open here; open ${index} in a browser\n`);
  });
  opener.unref();
}

/**
 * `partonfit report <fit>`: the fit's report folder (default `<fit>/report`): `index.html`
 * (offline, `vega.min.js` beside it), every figure as SVG and as PNG (for slides), the numbers
 * behind each figure as JSON and CSV. `--q 1.65,100` draws the PDFs at each scale Q in GeV
 * (default: the fit's Q0 only), a section each: at other scales than Q0 the replicas are evolved
 * as `partonfit evolve` evolves them (the theory card the runcard names, the cached operator).
 * `--compare` adds LHAPDF sets or fit folders to the χ² table and the PDF figures;
 * the first is the ratios' reference; `--replica-curves` draws every replica in the PDF figures
 * (with a checkbox in the page). The fit's replicas are evaluated on `--backend`, by
 * default the one that trained it. What cannot be shown is listed, not fatal.
 *
 * `partonfit report <scan>`: a hyperparameter scan folder (`partonfit hyperopt`'s, or n3fit's
 * `--hyperopt` output: a `tries.json` and no fitted replicas) gets the scan's report in the same
 * layout and place: the trials, the loss against each scanned setting, per fold and over the
 * scan, and the best trials. It needs no backend; `--compare` and `--replica-curves` are for fits.
 */
export const reportCommand = defineCommand({
  name: 'report',
  summary:
    'an offline HTML report of a fit (PDFs at Q0 and --q scales, χ², data and theory, training) or of a scan, figures as SVG and PNG',
  usage: USAGE,
  options: {
    q: { type: 'string' },
    compare: { type: 'string', multiple: true },
    output: { type: 'string' },
    'replica-curves': { type: 'boolean', default: false },
    open: { type: 'boolean', default: false },
    backend: { type: 'string' },
  },
  positionals: 1,
  run: async ({ values, positionals: [folder] }, terminal) => {
    const backend = backendOption(values.backend);
    const scales = values.q === undefined ? undefined : scalesOption('--q', values.q);
    const output = resolve(values.output ?? join(folder, 'report'));
    if (await holdsScanTrials(folder)) {
      const fitOnly = [
        ...(values.q === undefined ? [] : ['--q']),
        ...(values.compare === undefined ? [] : ['--compare']),
        ...(values['replica-curves'] ? ['--replica-curves'] : []),
      ];
      if (fitOnly.length > 0) {
        throw new UsageError(
          `${fitOnly.join(' and ')}: for fit reports; ${folder} is a hyperparameter scan`,
        );
      }
      const report = await buildScanReport(folder);
      const written = await writeReport(report, output);
      describeReport('scan report', report, written, terminal);
      if (values.open) openPage(written.index, terminal);
      return;
    }
    const evolution =
      scales === undefined ? undefined : await reportEvolution(folder, scales, terminal);
    await initBackend(await reportBackend(folder, backend));
    const report = await buildReport(folder, {
      compare: values.compare ?? [],
      replicaCurves: values['replica-curves'],
      ...(scales === undefined ? {} : { scales }),
      ...(evolution === undefined ? {} : { evolution }),
    });
    const written = await writeReport(report, output);
    describeReport('report', report, written, terminal);
    if (values.open) openPage(written.index, terminal);
  },
});
