import { resolve } from 'node:path';
import { oneOf, InvalidArgumentError } from '@partonfit/core';
import { BACKEND_REQUESTS, describeBackendSelection, initBackend } from '@partonfit/backend';
import { EXIT_INTERRUPTED } from '@partonfit/cluster';
import { DEFAULT_TRIALS_PER_MODEL, runScan, SAMPLERS, type ScanSummary } from '@partonfit/hyperopt';
import { TrainingInterruptedError, type TrainingProgress } from '@partonfit/trainer';
import { CommandExit, defineCommand, UsageError, type Command } from './define-command.js';
import { backendOption, positiveOption } from './option-values.js';
import { listenForStopSignals } from './stop-signals.js';
import { showProgress, type Terminal } from './terminal.js';

const USAGE = `partonfit hyperopt <runcard.yml> --trials N [--trials-per-model ${DEFAULT_TRIALS_PER_MODEL}] [--replicas 1] [--sampler tpe|random] [--backend ${BACKEND_REQUESTS.join('|')}] [--output <folder>] [--resume | --join] [--one-fold-per-model]`;

function describeScan(summary: ScanSummary): string {
  const lines = [
    `scan: ${summary.trials} trial(s) finished, ${summary.batchesTrained} batch(es) trained now, written to ${summary.triesFile}`,
    `  time: set-up ${summary.seconds.setup.toFixed(1)} s, training ${summary.seconds.training.toFixed(1)} s`,
  ];
  if (summary.best === undefined) {
    lines.push('  no trial passed yet');
  } else {
    lines.push(
      `  best: trial ${summary.best.tid}, loss ${summary.best.loss.toPrecision(6)}`,
      `  ${JSON.stringify(summary.best.parameters)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function batchProgress(terminal: Terminal) {
  return (batch: number, batches: number, progress: TrainingProgress) => {
    showProgress(
      terminal,
      `batch ${batch + 1}/${batches}  epoch ${progress.epoch}/${progress.epochs}  slots training ${progress.training}/${progress.validationChi2PerPoint.length}`,
      false,
    );
  };
}

/**
 * `partonfit hyperopt <runcard> --trials N`: a k-fold hyperparameter scan (n3fit's `--hyperopt
 * N`), each batch of trials trained as one multi-replica model; progress per batch on standard
 * error, the trials in `<output>/<name>/hyperopt/tries.json`. `--resume` continues a killed scan;
 * `--join` trains the unclaimed batches of a scan other processes run in the same folder (the
 * tasks of `partonfit submit --hyperopt`).
 * SIGTERM and SIGINT stop the batch in training (exit code {@link EXIT_INTERRUPTED}); it is
 * retrained on `--resume`.
 */
export const hyperoptCommand: Command = defineCommand({
  name: 'hyperopt',
  summary: 'scan hyperparameters with k-fold trials (n3fit --hyperopt), many trials per model',
  usage: USAGE,
  options: {
    trials: { type: 'string' },
    'trials-per-model': { type: 'string' },
    replicas: { type: 'string', default: '1' },
    sampler: { type: 'string', default: 'tpe' },
    backend: { type: 'string', default: 'auto' },
    output: { type: 'string', default: '.' },
    resume: { type: 'boolean', default: false },
    join: { type: 'boolean', default: false },
    'one-fold-per-model': { type: 'boolean', default: false },
  },
  positionals: 1,
  run: async ({ values, positionals: [file] }, terminal) => {
    if (values.trials === undefined) throw new UsageError('--trials: how many trials to run');
    if (values.resume && values.join)
      throw new UsageError('--resume and --join exclude each other');
    const trials = positiveOption('--trials', values.trials);
    // unset: the folder's own for --resume and --join, else the default
    const trialsPerModel =
      values['trials-per-model'] === undefined
        ? undefined
        : positiveOption('--trials-per-model', values['trials-per-model']);
    const replicas = positiveOption('--replicas', values.replicas);
    let sampler: (typeof SAMPLERS)[number];
    try {
      sampler = oneOf(values.sampler, SAMPLERS, '--sampler');
    } catch (error) {
      if (InvalidArgumentError.isInstance(error)) throw new UsageError(error.message);
      throw error;
    }
    const backend = await initBackend(backendOption(values.backend));
    terminal.error(`${describeBackendSelection(backend)}\n`);
    const stop = listenForStopSignals();
    const summary = await runScan({
      runcardFile: resolve(file),
      trials,
      ...(trialsPerModel === undefined ? {} : { trialsPerModel }),
      replicas,
      sampler,
      outputFolder: resolve(values.output),
      resume: values.resume,
      join: values.join,
      owner:
        process.env.SLURM_ARRAY_TASK_ID === undefined
          ? `pid ${process.pid}`
          : `SLURM job ${process.env.SLURM_ARRAY_JOB_ID ?? '?'} task ${process.env.SLURM_ARRAY_TASK_ID}`,
      oneFoldPerModel: values['one-fold-per-model'],
      report: (message) => {
        terminal.status?.('');
        terminal.error(`${message}\n`);
      },
      onProgress: batchProgress(terminal),
      signal: stop.signal,
    })
      .catch((error: unknown) => {
        if (TrainingInterruptedError.isInstance(error)) {
          throw new CommandExit(
            EXIT_INTERRUPTED,
            `${error.message}; ${values.join ? 'the same command continues the scan (a requeued task retrains its batch)' : 'the same command with --resume continues the scan'}`,
          );
        }
        throw error;
      })
      .finally(stop.release);
    terminal.status?.('');
    terminal.out(describeScan(summary));
  },
});
