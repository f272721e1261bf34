import { resolve } from 'node:path';
import { formatReplicaSelection } from '@partonfit/core';
import {
  fitStatus,
  isScanFolder,
  scanStatus,
  type BestTrial,
  type FitStatus,
  type ScanStatus,
} from '@partonfit/cluster';
import { defineCommand } from './define-command.js';

function describeStatus(status: FitStatus): string {
  const { ranges } = status;
  if (ranges.length === 0) {
    return `${status.fitFolder}: no replica ranges (no slurm/tasks.json, checkpoint or summary)\n`;
  }
  const labels = ranges.map(({ replicas }) => formatReplicaSelection(replicas));
  const width = Math.max(...labels.map((label) => label.length)) + 2;
  const lines = [
    `${status.fitFolder}: ${ranges.length} replica range(s)`,
    ...ranges.map(
      ({ state, detail }, i) => `  ${labels[i].padEnd(width)}${state.padEnd(13)}${detail}`,
    ),
  ];
  if (status.queueProblem !== undefined) {
    lines.push(`(SLURM's queue could not be read: ${status.queueProblem})`);
  }
  if (status.resubmit !== undefined) {
    lines.push(
      `to fit only what is missing (each range resumes from its checkpoint):`,
      `  ${status.resubmit}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The best trial and its main settings in one line. */
function describeBest(best: BestTrial): string {
  const settings = [
    best.layers === undefined ? undefined : `layers ${best.layers.join('-')}`,
    best.activation === undefined
      ? undefined
      : `activation ${typeof best.activation === 'string' ? best.activation : best.activation.join(',')}`,
    best.optimizer,
    best.learningRate === undefined
      ? undefined
      : `learning rate ${best.learningRate.toPrecision(3)}`,
    best.epochs === undefined ? undefined : `${best.epochs} epochs`,
  ].filter((setting) => setting !== undefined);
  return `trial ${best.tid}, loss ${best.loss.toPrecision(6)}${settings.length === 0 ? '' : `: ${settings.join(', ')}`}`;
}

const CLAIM_STATES = {
  running: 'running',
  stale:
    'stale: its task is no longer running; remove the claim, then run the scan again (partonfit hyperopt … --join, or submit --hyperopt) to train it',
  unknown: 'training',
} as const;

function describeScanStatus(status: ScanStatus): string {
  const { finished, batches } = status;
  const lines = [
    `${status.scanFolder}: hyperparameter scan of ${status.trials} trial(s), ${status.trialsPerModel} per model`,
    `  trials   ${finished.total} of ${status.trials} finished (${finished.ok} ok, ${finished.failed} failed)`,
    `  batches  ${batches.finished} finished, ${batches.running.length} running, ${batches.left} left of ${batches.total}`,
    ...batches.running.map(
      ({ batch, trials: [first, last], owner, state, claimFile }) =>
        `    batch ${batch} (trials ${first}-${last}): ${owner}, ${CLAIM_STATES[state]}${state === 'stale' ? ` (${claimFile})` : ''}`,
    ),
    `  best     ${status.best === undefined ? 'no ok trial yet' : describeBest(status.best)}`,
  ];
  for (const job of status.jobs) {
    const queued =
      job.queued.length === 0
        ? "no task in SLURM's queue"
        : job.queued.map(({ task, state }) => `task ${task} ${state.toLowerCase()}`).join(', ');
    const failed = job.failed.map(({ task, code }) => `task ${task} failed (exit code ${code})`);
    lines.push(
      `  SLURM    job ${job.job} (${job.tasks} task(s)): ${[queued, ...failed].join(', ')}`,
    );
  }
  if (status.queueProblem !== undefined) {
    lines.push(`(SLURM's queue could not be read: ${status.queueProblem})`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `partonfit status <folder>`: where each replica range of a fit stands (see `fitStatus`), or,
 * for a scan folder, its trials, batches, best trial and job array (see `scanStatus`).
 */
export const statusCommand = defineCommand({
  name: 'status',
  summary: 'show where the replica ranges of a fit, or the trials of a scan, stand',
  usage: 'partonfit status <fit or scan folder>',
  options: {},
  positionals: 1,
  run: async ({ positionals: [folder] }, terminal) => {
    const path = resolve(folder);
    terminal.out(
      (await isScanFolder(path))
        ? describeScanStatus(await scanStatus(path))
        : describeStatus(await fitStatus(path)),
    );
  },
});
