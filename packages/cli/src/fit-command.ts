import { resolve } from 'node:path';
import { loadRuncard } from '@partonfit/core';
import { BACKEND_REQUESTS, describeBackendSelection, initBackend } from '@partonfit/backend';
import {
  CHECKPOINT_EVERY,
  type FitSummary,
  formatReplicaSelection,
  parseReplicaSelection,
  runFit,
} from '@partonfit/trainer';
import type { TrainingProgress } from '@partonfit/trainer';
import { defineCommand, type Command } from './define-command.js';
import { backendOption, positiveOption } from './option-values.js';
import type { Terminal } from './terminal.js';

const USAGE = `partonfit fit <runcard.yml> [--replicas 1-100] [--backend ${BACKEND_REQUESTS.join('|')}] [--output <folder>] [--checkpoint-every <epochs>] [--resume]`;

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

function showProgress(terminal: Terminal) {
  return (progress: TrainingProgress) => {
    if (terminal.status !== undefined) {
      terminal.status(progressLine(progress));
    } else if (progress.epoch % PLAIN_EVERY === 0 || progress.training === 0) {
      terminal.error(`${progressLine(progress)}\n`);
    }
  };
}

function describeSummary(summary: FitSummary): string {
  const chi2 = summary.experimentalChi2;
  const lines = [
    `fit ${summary.fit}: ${summary.replicas.length} replica(s) on ${summary.backend}, ${summary.epochsRun} epochs, written to ${summary.folder}`,
    `  replicas passed: ${summary.passed.length} (${formatReplicaSelection(summary.passed) || 'none'}), vetoed: ${summary.vetoed.length}`,
    `  χ²/n per replica against the data: ${Math.min(...chi2).toFixed(3)} – ${Math.max(...chi2).toFixed(3)}`,
    `  χ²/n of the replica average: ${summary.quality.averageChi2PerPoint.toFixed(3)}`,
    ...Object.entries(summary.quality.datasetChi2PerPoint).map(
      ([name, chi2]) => `    ${name.padEnd(28)} ${chi2.toFixed(3)}`,
    ),
  ];
  if (summary.quality.biasVarianceRatio !== undefined) {
    lines.push(`  closure test: bias/variance = ${summary.quality.biasVarianceRatio.toFixed(3)}`);
  }
  lines.push(
    `  time: set-up ${summary.seconds.setup.toFixed(1)} s, training ${summary.seconds.training.toFixed(1)} s (${summary.seconds.msPerStep.toFixed(2)} ms per step)`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `partonfit fit <runcard>`: fits the replicas and writes the fit folder, saving a checkpoint
 * `<output>/<fit>/checkpoint_replicas_<selection>.h5` every `--checkpoint-every` epochs (default 1000); `--resume`
 * continues a killed fit from it.
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
    },
    positionals: 1,
    run: async ({ values, positionals: [file] }, terminal) => {
      const checkpointEvery = positiveOption('--checkpoint-every', values['checkpoint-every']);
      const request = backendOption(values.backend);
      const runcardFile = resolve(file);
      const replicas = parseReplicaSelection(values.replicas);
      const { runcard, warnings } = await loadRuncard(runcardFile);
      for (const warning of warnings) {
        terminal.error(
          `warning: ${file}:${warning.line ?? '?'}: ${warning.keyPath}: ${warning.problem}\n`,
        );
      }
      const backend = await initBackend(request);
      terminal.error(`${describeBackendSelection(backend)}\n`);
      const summary = await runFit({
        runcard,
        runcardFile,
        replicas,
        outputFolder: resolve(values.output),
        backend: backend.backend,
        version,
        report: (message) => {
          terminal.error(`${message}\n`);
        },
        onProgress: showProgress(terminal),
        checkpointEvery,
        resume: values.resume,
      });
      terminal.status?.('');
      terminal.out(describeSummary(summary));
    },
  });
}
