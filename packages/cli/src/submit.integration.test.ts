import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFitSubmissions } from '@partonfit/cluster';
import {
  localSlurmUnavailable,
  startLocalSlurm,
  writeClosureRuncard,
  type LocalSlurm,
} from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

const unavailable = localSlurmUnavailable();
if (unavailable !== undefined) {
  console.warn(`skipping the SLURM integration tests: ${unavailable}`);
}

/**
 * The embedded closure runcard, short (`epochs`), with thresholds every replica passes so that
 * postfit keeps them all.
 */
async function shortRuncard(name: string, epochs: number): Promise<string> {
  return (await writeClosureRuncard(name, { epochs, passEveryReplica: true })).runcard;
}

function slurm(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`${command} ${args.join(' ')}: ${stderr}`));
    });
  });
}

/** Waits until none of `jobs` is in the queue any more. */
async function waitForJobs(jobs: readonly string[], seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const queue = await slurm('squeue', ['-h', '-j', jobs.join(','), '-o', '%i %T']);
    if (queue.trim() === '') return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`jobs ${jobs.join(', ')} still queued after ${seconds} s`);
}

/** A job's state as `scontrol show job` reports it (jobs stay known for an hour here). */
async function jobState(job: string): Promise<string> {
  const text = await slurm('scontrol', ['show', 'job', job]);
  return /JobState=(\S+)/.exec(text)?.[1] ?? 'unknown';
}

/** Every replica's exportgrid and postfit's replica 0 of a fit folder, by relative path. */
async function fitOutputs(
  fitFolder: string,
  fit: string,
  replicas: number,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (let replica = 1; replica <= replicas; replica++) {
    const path = join('nnfit', `replica_${replica}`, `${fit}.exportgrid`);
    files.set(path, await readFile(join(fitFolder, path), 'utf8'));
  }
  const average = join('postfit', 'replica_0', `${fit}.exportgrid`);
  files.set(average, await readFile(join(fitFolder, average), 'utf8'));
  return files;
}

describe.skipIf(unavailable !== undefined)('partonfit submit on a real SLURM cluster', () => {
  let cluster: LocalSlurm | undefined;

  beforeAll(async () => {
    cluster = await startLocalSlurm();
    process.env.SLURM_CONF = cluster.env.SLURM_CONF;
  });

  afterAll(async () => {
    delete process.env.SLURM_CONF;
    await cluster?.stop();
  });

  it('should fit 4 tasks of 2 replicas into one fit folder equal to a single-process fit', async () => {
    const runcard = await shortRuncard('array', 300);
    const output = join(runcard, '..', 'cluster');
    const submitted = await run(
      'submit',
      runcard,
      '--replicas',
      '1-8',
      '--per-task',
      '2',
      '--output',
      output,
      '--postfit=--integrability-threshold 100',
    );
    expect(submitted.error).toBe('');
    expect(submitted.code).toBe(0);
    expect(submitted.out).toMatch(/^submitted 4 task\(s\) fitting replicas 1-8 into /);
    const fitFolder = join(output, 'array');
    const [submission] = await readFitSubmissions(fitFolder);
    expect(submission.tasks).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
    ]);
    const { array, postfit } = submission.jobs;
    await waitForJobs([array, postfit], 300);
    expect(await jobState(postfit)).toBe('COMPLETED');
    for (let task = 0; task < 4; task++) {
      expect(await jobState(`${array}_${task}`)).toBe('COMPLETED');
    }

    const single = join(runcard, '..', 'single');
    expect((await run('fit', runcard, '--replicas', '1-8', '--output', single)).code).toBe(0);
    const singleFolder = join(single, 'array');
    expect((await run('postfit', singleFolder, '--integrability-threshold', '100')).code).toBe(0);
    expect(await fitOutputs(fitFolder, 'array', 8)).toEqual(
      await fitOutputs(singleFolder, 'array', 8),
    );
    // The fit's summary covers every task's replicas; each task kept its own.
    const summary = JSON.parse(await readFile(join(fitFolder, 'summary.json'), 'utf8')) as {
      replicas: number[];
      passed: number[];
    };
    expect(summary).toMatchObject({
      replicas: [1, 2, 3, 4, 5, 6, 7, 8],
      passed: [1, 2, 3, 4, 5, 6, 7, 8],
    });
    expect((await readdir(join(fitFolder, 'summaries'))).sort()).toEqual([
      'replicas_1-2.json',
      'replicas_3-4.json',
      'replicas_5-6.json',
      'replicas_7-8.json',
    ]);
    // The job after the array wrote the report too.
    expect(await readdir(join(fitFolder, 'report'))).toContain('index.html');
    const status = await run('status', fitFolder);
    expect(status.code).toBe(0);
    expect(status.out).toContain('  1-2  done         2/2 replicas written');
    expect(status.out).not.toContain('to fit only what is missing');
  });

  it('should resume a task requeued mid-fit from its checkpoint and end with the same fit', async () => {
    const runcard = await shortRuncard('requeued', 1500);
    const output = join(runcard, '..', 'cluster');
    const submitted = await run(
      'submit',
      runcard,
      '--replicas',
      '1-2',
      '--per-task',
      '2',
      '--output',
      output,
      '--postfit=--integrability-threshold 100',
    );
    expect(submitted.code).toBe(0);
    const fitFolder = join(output, 'requeued');
    const [{ jobs }] = await readFitSubmissions(fitFolder);
    const task = `${jobs.array}_0`;
    const log = join(fitFolder, 'slurm', `task_${jobs.array}_0.log`);
    // Requeue once the fit is training (it has said how many points it fits).
    const deadline = Date.now() + 120_000;
    while (!(await readFile(log, 'utf8').catch(() => '')).includes('fitting 174 data points')) {
      if (Date.now() > deadline) throw new Error(`task ${task} did not start training`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await slurm('scontrol', ['requeue', task]);
    // SLURM holds a requeued job back for a while (its begin time moves ~2 min ahead); once it
    // is pending again, let it start at once.
    let state = await jobState(task);
    while (state === 'RUNNING' || state === 'COMPLETING' || state === 'REQUEUED') {
      if (Date.now() > deadline + 60_000) throw new Error(`task ${task} was not requeued`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = await jobState(task);
    }
    // The begin time can move again after the first update (seen on a slow host, where the task
    // then stayed pending past the wait below): repeat it until the task leaves the queue.
    while (state === 'PENDING' || state === 'REQUEUE_HOLD') {
      if (Date.now() > deadline + 180_000) throw new Error(`task ${task} stayed ${state}`);
      await slurm('scontrol', ['update', `jobid=${task}`, 'StartTime=now']).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      state = await jobState(task);
    }
    await waitForJobs([jobs.array, jobs.postfit], 300);
    expect(await jobState(jobs.postfit)).toBe('COMPLETED');
    const text = await readFile(log, 'utf8');
    expect(text).toMatch(/training interrupted \(SIGTERM\) after \d+ epochs; checkpoint written/);
    const resumedAt = Number(/resuming from .* at epoch (\d+)/.exec(text)?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThan(1500);

    const single = join(runcard, '..', 'single');
    expect((await run('fit', runcard, '--replicas', '1-2', '--output', single)).code).toBe(0);
    const singleFolder = join(single, 'requeued');
    expect((await run('postfit', singleFolder, '--integrability-threshold', '100')).code).toBe(0);
    expect(await fitOutputs(fitFolder, 'requeued', 2)).toEqual(
      await fitOutputs(singleFolder, 'requeued', 2),
    );
  });
});
