import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScanSubmissions } from '@partonfit/cluster';
import { localSlurmUnavailable, startLocalSlurm, type LocalSlurm } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

const unavailable = localSlurmUnavailable();
if (unavailable !== undefined) {
  console.warn(`skipping the SLURM scan integration test: ${unavailable}`);
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

/** Waits until `job` is not in the queue any more. */
async function waitForJob(job: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if ((await slurm('squeue', ['-h', '-j', job, '-o', '%i %T'])).trim() === '') return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`job ${job} still queued after ${seconds} s`);
}

/** A job's state as `scontrol show job` reports it. */
async function jobState(job: string): Promise<string> {
  const text = await slurm('scontrol', ['show', 'job', job]);
  return /JobState=(\S+)/.exec(text)?.[1] ?? 'unknown';
}

describe.skipIf(unavailable !== undefined)(
  'partonfit submit --hyperopt on a real SLURM cluster',
  () => {
    let cluster: LocalSlurm | undefined;

    beforeAll(async () => {
      cluster = await startLocalSlurm();
      process.env.SLURM_CONF = cluster.env.SLURM_CONF;
    });

    afterAll(async () => {
      delete process.env.SLURM_CONF;
      await cluster?.stop();
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
      expect(submitted.out).toMatch(
        /^submitted 2 task\(s\) sharing 4 trial\(s\) in 4 batch\(es\) /,
      );
      const scanFolder = join(output, 'shared');
      const [submission] = await readScanSubmissions(scanFolder);
      expect(submission).toMatchObject({ trials: 4, trialsPerModel: 1, tasks: 2 });
      const job = submission.jobs.array;
      await waitForJob(job, 400);
      const logs = await Promise.all(
        [0, 1].map((task) =>
          readFile(join(scanFolder, 'slurm', `task_${job}_${task}.log`), 'utf8'),
        ),
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
      // Each batch has its own file of one trial and was trained by one task, once.
      const batches = (await readdir(join(scanFolder, 'hyperopt', 'batches'))).sort();
      expect(batches).toEqual([
        'batch_0000.json',
        'batch_0001.json',
        'batch_0002.json',
        'batch_0003.json',
      ]);
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
  },
);
