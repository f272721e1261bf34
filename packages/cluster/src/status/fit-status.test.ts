import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointFile, fitFolderPaths } from '@partonfit/fit-folder';
import { writeHdf5File } from '@partonfit/io';
import { failedTaskMarker } from '../slurm/sbatch-scripts.js';
import { SchedulerError } from '../slurm/scheduler-error.js';
import { recordFitSubmission } from '../tasks/fit-tasks.js';
import { fitStatus } from './fit-status.js';

const TASKS = [
  [1, 2],
  [3, 4],
  [5, 6],
  [7, 8],
];

/**
 * A fit folder `<output>/scan` submitted as four tasks of two replicas: 1-2 written, 3-4 failed
 * with exit code 1, 5-6 interrupted with a checkpoint at epoch 1234, 7-8 without any file.
 */
async function submittedFit(): Promise<{ output: string; fitFolder: string }> {
  const output = await mkdtemp(join(tmpdir(), 'partonfit-status-'));
  const fitFolder = join(output, 'scan');
  await recordFitSubmission(fitFolder, {
    runcardFile: '/runcards/scan.yml',
    outputFolder: output,
    perTask: 2,
    tasks: TASKS,
    fitOptions: ['--backend', 'native'],
    jobs: { array: '41', postfit: '42' },
    submitted: '2026-11-24T10:00:00.000Z',
  });
  for (const replica of [1, 2]) {
    const { json, replicaFolder } = fitFolderPaths(output, 'scan', replica);
    await mkdir(replicaFolder, { recursive: true });
    await writeFile(json, '{}');
  }
  await writeFile(failedTaskMarker(fitFolder, [3, 4]), '1\n');
  await writeHdf5File(checkpointFile(fitFolder, [5, 6]), {
    datasets: { weights: { shape: [1], data: Float32Array.of(0) } },
    attributes: { epoch: 1234 },
  });
  return { output, fitFolder };
}

describe('fitStatus', () => {
  it('should tell done, failed, stopped and never-started ranges apart and resubmit the missing ones', async () => {
    const { output, fitFolder } = await submittedFit();
    const status = await fitStatus(fitFolder, { queue: () => Promise.resolve(new Map()) });
    expect(status.ranges).toEqual([
      { replicas: [1, 2], state: 'done', detail: '2/2 replicas written' },
      { replicas: [3, 4], state: 'failed', detail: 'exit code 1; 0/2 replicas written' },
      {
        replicas: [5, 6],
        state: 'stopped',
        detail: "checkpoint at epoch 1234, not in SLURM's queue; 0/2 replicas written",
      },
      { replicas: [7, 8], state: 'not started', detail: '0/2 replicas written' },
    ]);
    expect(status.queueProblem).toBeUndefined();
    expect(status.resubmit).toBe(
      `partonfit submit /runcards/scan.yml --replicas 3-8 --per-task 2 --output ${output} --backend native`,
    );
  });

  it("should take running and pending ranges from SLURM's queue and leave them out of the resubmission", async () => {
    const { output, fitFolder } = await submittedFit();
    const queued = new Map([
      [2, 'RUNNING'],
      [3, 'PENDING'],
    ]);
    const status = await fitStatus(fitFolder, {
      queue: (job) => Promise.resolve(job === '41' ? queued : new Map()),
    });
    expect(status.ranges.map(({ state }) => state)).toEqual([
      'done',
      'failed',
      'running',
      'pending',
    ]);
    expect(status.ranges[3]?.detail).toBe("pending in SLURM's queue; 0/2 replicas written");
    expect(status.resubmit).toContain(`--replicas 3-4 --per-task 2 --output ${output}`);
  });

  it('should fall back to the files and say why when the queue cannot be read', async () => {
    const { fitFolder } = await submittedFit();
    const status = await fitStatus(fitFolder, {
      queue: () =>
        Promise.reject(
          new SchedulerError({ command: 'squeue -j 41', problem: 'squeue not found' }),
        ),
    });
    expect(status.queueProblem).toBe('squeue -j 41: squeue not found');
    expect(status.ranges.map(({ state }) => state)).toEqual([
      'done',
      'failed',
      'stopped',
      'not started',
    ]);
  });

  it('should find the ranges of a folder filled by `fit --replicas` processes without SLURM', async () => {
    const output = await mkdtemp(join(tmpdir(), 'partonfit-status-'));
    const fitFolder = join(output, 'local');
    await mkdir(join(fitFolder, 'summaries'), { recursive: true });
    await writeFile(join(fitFolder, 'summaries', 'replicas_1-3.json'), '{}');
    await writeHdf5File(checkpointFile(fitFolder, [4, 5]), {
      datasets: { weights: { shape: [1], data: Float32Array.of(0) } },
      attributes: { epoch: 20 },
    });
    const status = await fitStatus(fitFolder);
    expect(status.ranges.map(({ replicas, state }) => [replicas, state])).toEqual([
      [[1, 2, 3], 'not started'],
      [[4, 5], 'stopped'],
    ]);
    expect(status.resubmit).toBeUndefined();
  });
});
