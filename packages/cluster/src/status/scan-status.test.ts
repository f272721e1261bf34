import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isScanFolder, scanFiles } from '../scan/scan-files.js';
import { failedScanTaskMarker, slurmFolder } from '../slurm/sbatch-scripts.js';
import { SchedulerError } from '../slurm/scheduler-error.js';
import { recordScanSubmission } from '../tasks/scan-tasks.js';
import { scanStatus } from './scan-status.js';

/** A trial document as `partonfit hyperopt` writes it, with what the status reads. */
function trial(tid: number, status: 'ok' | 'fail', loss: number | null, epochs = 1000 + tid) {
  return {
    state: 2,
    tid,
    result: { status, loss },
    misc: {
      tid,
      space_vals: {
        nodes_per_layer: [10 + tid, 20, 8],
        activation_per_layer: tid % 2 === 0 ? 'tanh' : 'sigmoid',
        optimizer: { optimizer_name: 'Nadam', learning_rate: 0.001 * (tid + 1), clipnorm: 1e-5 },
        epochs,
        stopping_patience: 0.1,
      },
    },
  };
}

/**
 * A scan of 14 trials, 3 per model (5 batches), submitted as job 12 of 3 tasks: batch 0 (trials
 * 0–2: loss 7.5, failed, loss 3.25) and batch 1 (trials 3–5: loss 4.5, loss null, failed)
 * finished, batch 2 claimed by task 1, batch 3 by task 0, batch 4 left; task 0 failed with exit
 * code 1.
 */
async function scan(): Promise<string> {
  const output = await mkdtemp(join(tmpdir(), 'partonfit-scan-status-'));
  const folder = join(output, 'scan');
  const files = scanFiles(folder);
  await mkdir(files.batches, { recursive: true });
  await writeFile(
    files.settings,
    JSON.stringify({
      runcardSha256: 'ab'.repeat(32),
      trials_per_model: 3,
      replicas: 1,
      sampler: 'tpe',
      seed: 42,
      one_fold_per_model: false,
      trials: 14,
    }),
  );
  await writeFile(
    join(files.batches, 'batch_0000.json'),
    JSON.stringify([trial(0, 'ok', 7.5), trial(1, 'fail', 120.25), trial(2, 'ok', 3.25, 1400)]),
  );
  await writeFile(
    join(files.batches, 'batch_0001.json'),
    JSON.stringify([trial(3, 'ok', 4.5), trial(4, 'ok', null), trial(5, 'fail', null)]),
  );
  await writeFile(join(files.batches, 'batch_0002.claim'), 'SLURM job 12 task 1\n');
  await writeFile(join(files.batches, 'batch_0003.claim'), 'SLURM job 12 task 0\n');
  await recordScanSubmission(folder, {
    runcardFile: '/runcards/scan.yml',
    outputFolder: output,
    trials: 14,
    trialsPerModel: 3,
    replicas: 1,
    sampler: 'tpe',
    tasks: 3,
    hyperoptOptions: ['--backend', 'cpu'],
    jobs: { array: '12' },
    submitted: '2026-11-24T10:00:00.000Z',
  });
  await writeFile(failedScanTaskMarker(folder, '12', 0), '1\n');
  return folder;
}

const queue = (states: Record<string, Map<number, string>>) => (job: string) =>
  Promise.resolve(states[job] ?? new Map<number, string>());

describe('scanStatus', () => {
  it('should count the trials and batches and find the best trial with its settings', async () => {
    const folder = await scan();
    const status = await scanStatus(folder, {
      queue: queue({
        '12': new Map([
          [1, 'RUNNING'],
          [2, 'PENDING'],
        ]),
      }),
    });
    expect(status.trials).toBe(14);
    expect(status.trialsPerModel).toBe(3);
    expect(status.finished).toEqual({ total: 6, ok: 4, failed: 2 });
    expect(status.batches).toMatchObject({ total: 5, finished: 2, left: 1 });
    expect(status.batches.running).toEqual([
      {
        batch: 2,
        trials: [6, 8],
        owner: 'SLURM job 12 task 1',
        state: 'running',
        claimFile: join(scanFiles(folder).batches, 'batch_0002.claim'),
      },
      {
        batch: 3,
        trials: [9, 11],
        owner: 'SLURM job 12 task 0',
        state: 'stale',
        claimFile: join(scanFiles(folder).batches, 'batch_0003.claim'),
      },
    ]);
    expect(status.best).toEqual({
      tid: 2,
      loss: 3.25,
      layers: [12, 20, 8],
      activation: 'tanh',
      optimizer: 'Nadam',
      learningRate: 0.003,
      epochs: 1400,
    });
    expect(status.jobs).toEqual([
      {
        job: '12',
        tasks: 3,
        submitted: '2026-11-24T10:00:00.000Z',
        queued: [
          { task: 1, state: 'RUNNING' },
          { task: 2, state: 'PENDING' },
        ],
        failed: [{ task: 0, code: '1' }],
      },
    ]);
    expect(status.queueProblem).toBeUndefined();
  });

  it('should give the last batch only the trials left', async () => {
    const folder = await scan();
    await rm(join(scanFiles(folder).batches, 'batch_0002.claim'));
    await writeFile(join(scanFiles(folder).batches, 'batch_0004.claim'), 'pid 4242\n');
    const status = await scanStatus(folder, { queue: queue({}) });
    expect(
      status.batches.running.map(({ batch, trials, state }) => [batch, trials, state]),
    ).toEqual([
      [3, [9, 11], 'stale'],
      [4, [12, 13], 'unknown'],
    ]);
    expect(status.batches.left).toBe(1);
    expect(status.jobs[0]?.queued).toEqual([]);
  });

  it('should judge no claim and say why when the queue cannot be read', async () => {
    const folder = await scan();
    const status = await scanStatus(folder, {
      queue: () =>
        Promise.reject(new SchedulerError({ command: 'squeue -j 12', problem: 'not found' })),
    });
    expect(status.queueProblem).toBe('squeue -j 12: not found');
    expect(status.batches.running.map(({ state }) => state)).toEqual(['unknown', 'unknown']);
    expect(status.jobs[0]?.failed).toEqual([{ task: 0, code: '1' }]);
  });

  it('should read a scan run without SLURM from its scan.json alone', async () => {
    const folder = await scan();
    await rm(slurmFolder(folder), { recursive: true });
    let asked = 0;
    const status = await scanStatus(folder, {
      queue: () => {
        asked++;
        return Promise.resolve(new Map());
      },
    });
    // The claims' owners name job 12: the queue is asked about it although no submission is recorded.
    expect(asked).toBe(1);
    expect(status.jobs).toEqual([]);
    expect(status.finished.total).toBe(6);
  });

  it('should take the size of a submitted scan whose tasks have not started from its submission', async () => {
    const output = await mkdtemp(join(tmpdir(), 'partonfit-scan-status-'));
    const folder = join(output, 'fresh');
    expect(await isScanFolder(folder)).toBe(false);
    await recordScanSubmission(folder, {
      runcardFile: '/runcards/fresh.yml',
      outputFolder: output,
      trials: 4,
      trialsPerModel: 1,
      replicas: 1,
      sampler: 'random',
      tasks: 2,
      hyperoptOptions: [],
      jobs: { array: '30' },
      submitted: '2026-11-24T11:00:00.000Z',
    });
    expect(await isScanFolder(folder)).toBe(true);
    const status = await scanStatus(folder, {
      queue: queue({
        '30': new Map([
          [0, 'PENDING'],
          [1, 'PENDING'],
        ]),
      }),
    });
    expect(status.finished).toEqual({ total: 0, ok: 0, failed: 0 });
    expect(status.batches).toEqual({ total: 4, finished: 0, running: [], left: 4 });
    expect(status.best).toBeUndefined();
  });

  it('should name the file of a damaged scan.json or batch', async () => {
    const folder = await scan();
    await writeFile(join(scanFiles(folder).batches, 'batch_0001.json'), '{"tid": 3}');
    await expect(scanStatus(folder, { queue: queue({}) })).rejects.toThrow(
      `${join(scanFiles(folder).batches, 'batch_0001.json')}: expected a list of the batch's trials`,
    );
    await writeFile(scanFiles(folder).settings, '{"trials": 0}');
    await expect(scanStatus(folder, { queue: queue({}) })).rejects.toThrow(
      `${scanFiles(folder).settings}: runcardSha256: expected a SHA-256, got undefined`,
    );
  });
});
