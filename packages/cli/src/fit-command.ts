import { existsSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import {
  FileSystemError,
  formatReplicaSelection,
  loadRuncard,
  parseReplicaSelection,
  PartonfitError,
  type Runcard,
} from '@partonfit/core';
import { BACKEND_REQUESTS, describeBackendSelection, initBackend } from '@partonfit/backend';
import { checkpointFile, fitCovarianceName, type FitSummary } from '@partonfit/fit-folder';
import { EXIT_INTERRUPTED } from '@partonfit/cluster';
import { CHECKPOINT_EVERY, runFit, TrainingInterruptedError } from '@partonfit/trainer';
import type { TrainingProgress } from '@partonfit/trainer';
import { CommandExit, defineCommand, UsageError, type Command } from './define-command.js';
import { backendOption, positiveOption } from './option-values.js';
import { listenForStopSignals } from './stop-signals.js';
import { showProgress, type Terminal } from './terminal.js';

const USAGE = `partonfit fit <runcard.yml> [--replicas 1-100] [--backend ${BACKEND_REQUESTS.join('|')}] [--output <folder>] [--checkpoint-every <epochs>] [--resume | --overwrite]`;

/** Epochs between two plain progress lines when the output is not a terminal. */
const PLAIN_EVERY = 1000;

function progressLine(progress: TrainingProgress): string {
  const validation = Array.from(progress.validationChi2PerPoint).filter(Number.isFinite);
  const range =
    validation.length === 0
      ? 'n/a'
      : `${Math.min(...validation).toFixed(2)}–${Math.max(...validation).toFixed(2)}`;
  return `epoch ${progress.epoch}/${progress.epochs}  replicas training ${progress.training}/${progress.validationChi2PerPoint.length}  validation χ²/n ${range}`;
}

function trainingProgress(terminal: Terminal) {
  return (progress: TrainingProgress) => {
    const plain = progress.epoch % PLAIN_EVERY === 0 || progress.training === 0;
    showProgress(terminal, progressLine(progress), plain);
  };
}

/** `min – max` of the finite values, or `n/a`. */
function finiteRange(values: readonly number[], digits: number): string {
  const finite = values.filter(Number.isFinite);
  return finite.length === 0
    ? 'n/a'
    : `${Math.min(...finite).toFixed(digits)} – ${Math.max(...finite).toFixed(digits)}`;
}

function describeDiverged(summary: FitSummary): string[] {
  if (summary.diverged.length === 0) return [];
  return [
    `  replicas diverged: ${summary.diverged.length} (${formatReplicaSelection(summary.diverged.map(({ replica }) => replica))}), not kept by postfit:`,
    ...summary.diverged.map(
      ({ replica, epoch, bestEpoch }) =>
        `    replica ${replica}: loss not finite at epoch ${epoch}; ${bestEpoch === null ? 'no best epoch, no PDF written' : `its best epoch ${bestEpoch} written`}`,
    ),
  ];
}

/** The fit's summary, its χ² numbers named with their covariance (from the runcard). */
function describeSummary(summary: FitSummary, runcard: Runcard): string {
  const { quality } = summary;
  const theory = summary.theoryCovariance;
  const lines = [
    `fit ${summary.fit}: ${summary.replicas.length} replica(s) on ${summary.backend}, ${summary.epochsRun} epochs, written to ${summary.folder}`,
    `  replicas passed: ${summary.passed.length} (${formatReplicaSelection(summary.passed) || 'none'}), vetoed: ${summary.vetoed.length}`,
    ...describeDiverged(summary),
  ];
  if (theory !== undefined) {
    const sources = [
      ...theory.prescriptions,
      ...(theory.userCovariance === undefined ? [] : ['user covariance']),
    ].join(' + ');
    const places = [
      ...(theory.inFitting ? ['χ²'] : []),
      ...(theory.inSampling ? ['pseudodata'] : []),
    ];
    lines.push(
      `  theory covariance: ${sources}, in the ${places.join(' and ') || '(neither χ² nor pseudodata)'}; S in ${theory.table}`,
    );
  }
  const withS = theory?.inFitting === true;
  lines.push(
    `  χ² covariance: ${withS ? 'C + S, ' : ''}C = ${fitCovarianceName(runcard)}`,
    `  χ²/n per replica against the data: ${finiteRange(summary.experimentalChi2, 3)}`,
  );
  if (quality !== undefined) {
    const withoutTheory =
      quality.averageChi2PerPointWithoutTheory === undefined
        ? ''
        : ` with C + S, ${quality.averageChi2PerPointWithoutTheory.toFixed(3)} with C alone`;
    lines.push(
      `  χ²/n of the replica average: ${quality.averageChi2PerPoint.toFixed(3)}${withoutTheory}`,
      `    per dataset, with its own block of ${withS ? 'C + S' : 'C'}:`,
      ...Object.entries(quality.datasetChi2PerPoint).map(
        ([name, chi2]) => `      ${name.padEnd(28)} ${chi2.toFixed(3)}`,
      ),
    );
    if (quality.biasVarianceRatio !== undefined) {
      lines.push(`  closure test: bias/variance = ${quality.biasVarianceRatio.toFixed(3)}`);
    }
  }
  lines.push(
    `  time: set-up ${summary.seconds.setup.toFixed(1)} s, training ${summary.seconds.training.toFixed(1)} s (${summary.seconds.msPerStep.toFixed(2)} ms per step)`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `partonfit fit <runcard>`: fits the replicas and writes the fit folder, saving a checkpoint
 * `<output>/<fit>/checkpoint_replicas_<selection>.h5` every `--checkpoint-every` epochs (default 1000); `--resume`
 * continues a killed fit from it. A fit folder holding another runcard's fit is refused unless
 * `--overwrite` deletes it; diverged replicas are named, and the command fails only when every
 * replica diverged. SIGTERM (a batch scheduler's preemption or time limit) and SIGINT (Ctrl-C)
 * stop the training after the step in progress with its checkpoint written: exit code
 * {@link EXIT_INTERRUPTED}, continue with `--resume`.
 */
export function fitCommand(version: string): Command {
  return defineCommand({
    name: 'fit',
    summary: 'fit PDF replicas together and write the fit folder',
    usage: USAGE,
    options: {
      replicas: { type: 'string', default: '1' },
      backend: { type: 'string', default: 'auto' },
      output: { type: 'string', default: '.' },
      'checkpoint-every': { type: 'string', default: `${CHECKPOINT_EVERY}` },
      resume: { type: 'boolean', default: false },
      overwrite: { type: 'boolean', default: false },
    },
    positionals: 1,
    run: async ({ values, positionals: [file] }, terminal) => {
      const checkpointEvery = positiveOption('--checkpoint-every', values['checkpoint-every']);
      if (values.resume && values.overwrite) {
        throw new UsageError('--resume and --overwrite exclude each other');
      }
      const request = backendOption(values.backend);
      const runcardFile = resolve(file);
      const replicas = parseReplicaSelection(values.replicas);
      const { runcard, warnings, hyperscan } = await loadRuncard(runcardFile);
      for (const warning of warnings) {
        terminal.error(
          `warning: ${file}:${warning.line ?? '?'}: ${warning.keyPath}: ${warning.problem}\n`,
        );
      }
      const backend = await initBackend(request);
      terminal.error(`${describeBackendSelection(backend)}\n`);
      const stop = listenForStopSignals();
      const summary = await runFit({
        runcard,
        runcardFile,
        hyperscan,
        replicas,
        outputFolder: resolve(values.output),
        backend: backend.backend,
        version,
        report: (message) => {
          terminal.error(`${message}\n`);
        },
        onProgress: trainingProgress(terminal),
        checkpointEvery,
        resume: values.resume,
        overwrite: values.overwrite,
        signal: stop.signal,
      })
        .catch((error: unknown) => {
          if (TrainingInterruptedError.isInstance(error)) {
            throw new CommandExit(EXIT_INTERRUPTED, error.message);
          }
          const failure = FileSystemError.fromSystemError(error);
          const fitFolder = join(
            resolve(values.output),
            basename(runcardFile, extname(runcardFile)),
          );
          const checkpoint = checkpointFile(fitFolder, replicas);
          if (failure === undefined || !existsSync(checkpoint)) throw error;
          throw new PartonfitError({
            message: `${failure.message}; once that is fixed, the same command with --resume continues from ${checkpoint}`,
            cause: error,
          });
        })
        .finally(stop.release);
      terminal.status?.('');
      terminal.out(describeSummary(summary, runcard));
      if (summary.diverged.length === summary.replicas.length) {
        throw new PartonfitError({
          message: `every replica diverged (its loss stopped being finite); lower the learning rate or set a clipnorm in ${file}, and refit`,
        });
      }
    },
  });
}
