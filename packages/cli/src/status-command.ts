import { resolve } from 'node:path';
import { formatReplicaSelection } from '@partonfit/core';
import { fitStatus, type FitStatus } from '@partonfit/cluster';
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

/** `partonfit status <fit folder>`: where each replica range of a fit stands (see `fitStatus`). */
export const statusCommand = defineCommand({
  name: 'status',
  summary: 'show which replica ranges of a fit are done, running, failed or missing',
  usage: 'partonfit status <fit folder>',
  options: {},
  positionals: 1,
  run: async ({ positionals: [folder] }, terminal) => {
    terminal.out(describeStatus(await fitStatus(resolve(folder))));
  },
});
