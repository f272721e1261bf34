import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFitSubmissions, readScanSubmissions } from '@partonfit/cluster';
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

const HYPEROPT_RUNCARD = fileURLToPath(new URL('../../../examples/hyperopt.yml', import.meta.url));

/**
 * The example scan runcard made tiny: 20 to 40 epochs per trial and two partitions (two folds),
 * written as `<name>.yml` into a new temporary folder.
 */
async function tinyScanRuncard(name: string): Promise<string> {
  const text = (await readFile(HYPEROPT_RUNCARD, 'utf8'))
    .replace('min_epochs: 1000', 'min_epochs: 20')
    .replace('max_epochs: 4000', 'max_epochs: 40')
    .replace('  epochs: 4000\n', '  epochs: 40\n')
    .replace('    - datasets: [CLOSURE_NU_F2, CLOSURE_NUB_XF3, CLOSURE_NUB_DIMUON]\n', '');
  expect(text.match(/- datasets: /g)).toHaveLength(2);
  const folder = await mkdtemp(join(tmpdir(), `partonfit-${name}-`));
  const runcard = join(folder, `${name}.yml`);
  await writeFile(runcard, text);
  return runcard;
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
    // long enough (about 12 s of training here) that the requeue 3 s into training always finds
    // the fit running: with 1,500 epochs a fast step could end the fit before the requeue came
    const epochs = 6000;
    const runcard = await shortRuncard('requeued', epochs);
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
    const requeuedAt = Date.now();
    await slurm('scontrol', ['requeue', task]);
    // SLURM holds a requeued job back for a while (its begin time moves ~2 min ahead); once it
    // is pending again, let it start at once.
    let state = await jobState(task);
    while (state === 'RUNNING' || state === 'COMPLETING' || state === 'REQUEUED') {
      if (Date.now() > deadline + 60_000) throw new Error(`task ${task} was not requeued`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = await jobState(task);
    }
    // Starting it at once while its first run still ends on the node (writing its checkpoint)
    // makes slurmd refuse the launch ("Job credential revoked": the requeue revoked the task's
    // credentials, to the second), and the failed launch cancels the postfit job. So wait until
    // the first run has written its checkpoint and left the node, and a second has passed.
    while (
      !/training interrupted \(SIGTERM\)/.test(await readFile(log, 'utf8')) ||
      (await slurm('sinfo', ['-h', '-o', '%T'])).trim() !== 'idle' ||
      Date.now() - requeuedAt < 2000
    ) {
      if (Date.now() > deadline + 120_000) throw new Error(`task ${task} did not leave the node`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    state = await jobState(task);
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
    expect(resumedAt).toBeLessThan(epochs);

    const single = join(runcard, '..', 'single');
    expect((await run('fit', runcard, '--replicas', '1-2', '--output', single)).code).toBe(0);
    const singleFolder = join(single, 'requeued');
    expect((await run('postfit', singleFolder, '--integrability-threshold', '100')).code).toBe(0);
    expect(await fitOutputs(fitFolder, 'requeued', 2)).toEqual(
      await fitOutputs(singleFolder, 'requeued', 2),
    );
  });

  it('should share 4 trials among 2 tasks, each batch trained once, into one scan folder', async () => {
    const runcard = await tinyScanRuncard('shared');
    const output = join(runcard, '..', 'scans');
    const submitted = await run(
      'submit',
      runcard,
      '--hyperopt',
      '4',
      '--tasks',
      '2',
      '--trials-per-model',
      '1',
      '--backend',
      'cpu',
      '--output',
      output,
    );
    expect(submitted.error).toBe('');
    expect(submitted.code).toBe(0);
    expect(submitted.out).toMatch(/^submitted 2 task\(s\) sharing 4 trial\(s\) in 4 batch\(es\) /);
    const scanFolder = join(output, 'shared');
    const [submission] = await readScanSubmissions(scanFolder);
    expect(submission).toMatchObject({ trials: 4, trialsPerModel: 1, tasks: 2 });
    const job = submission.jobs.array;
    await waitForJobs([job], 400);
    const logs = await Promise.all(
      [0, 1].map((task) => readFile(join(scanFolder, 'slurm', `task_${job}_${task}.log`), 'utf8')),
    );
    for (const task of [0, 1]) {
      // the log shows in the difference when a task did not complete
      expect({ state: await jobState(`${job}_${task}`), log: logs[task] }).toMatchObject({
        state: 'COMPLETED',
      });
    }

    const tries = JSON.parse(
      await readFile(join(scanFolder, 'hyperopt', 'tries.json'), 'utf8'),
    ) as { tid: number; result: { status: string } }[];
    expect(tries.map(({ tid }) => tid)).toEqual([0, 1, 2, 3]);
    // Each batch has its own file of one trial, and its claim beside it, and was trained by one
    // task, once.
    const files = (await readdir(join(scanFolder, 'hyperopt', 'batches'))).sort();
    expect(files).toEqual(
      [0, 1, 2, 3].flatMap((b) => [`batch_000${b}.claim`, `batch_000${b}.json`]),
    );
    const batches = files.filter((name) => name.endsWith('.json'));
    for (const [b, name] of batches.entries()) {
      const documents = JSON.parse(
        await readFile(join(scanFolder, 'hyperopt', 'batches', name), 'utf8'),
      ) as { tid: number }[];
      expect(documents.map(({ tid }) => tid)).toEqual([b]);
      const trained = logs.join('\n').match(new RegExp(`^batch ${b + 1}/4: `, 'gm')) ?? [];
      expect({ batch: b, trained: trained.length, logs }).toMatchObject({ trained: 1 });
    }

    const status = await run('status', scanFolder);
    expect(status.error).toBe('');
    expect(status.code).toBe(0);
    const ok = tries.filter(({ result }) => result.status === 'ok').length;
    expect(status.out).toContain(`  trials   4 of 4 finished (${ok} ok, ${4 - ok} failed)\n`);
    expect(status.out).toContain('  batches  4 finished, 0 running, 0 left of 4\n');
    expect(status.out).toContain(`  SLURM    job ${job} (2 task(s)): no task in SLURM's queue\n`);
  });
});
