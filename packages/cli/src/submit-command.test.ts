import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

describe('partonfit submit', () => {
  it('should print the job array and postfit scripts on --dry-run and write nothing', async () => {
    const output = await mkdtemp(join(tmpdir(), 'partonfit-submit-'));
    const result = await run(
      'submit',
      CLOSURE_RUNCARD,
      '--replicas',
      '1-250',
      '--per-task',
      '100',
      '--output',
      output,
      '--partition',
      'gpu',
      '--gpus-per-task',
      '1',
      '--backend',
      'wasm',
      '--extra-sbatch=--account=nnpdf --qos=long',
      '--dry-run',
    );
    expect(result.error).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('3 task(s), replicas 1-250');
    expect(result.out).toContain('ranges=(1-100 101-200 201-250)');
    expect(result.out).toContain('#SBATCH --array=0-2\n');
    expect(result.out).toContain(
      '#SBATCH --gpus-per-task=1\n#SBATCH --account=nnpdf\n#SBATCH --qos=long\n',
    );
    expect(result.out).toMatch(/ fit \S*closure\.yml --output \S+ --backend wasm --replicas "/);
    expect(result.out).toMatch(/ postfit \S+\/closure\n/);
    expect(await readdir(output)).toEqual([]);
  });

  it('should refuse a bad --per-task and a bad replica selection before submitting', async () => {
    const perTask = await run('submit', CLOSURE_RUNCARD, '--per-task', '0', '--dry-run');
    expect(perTask.code).toBe(2);
    expect(perTask.error).toContain("--per-task: expected a positive integer, got '0'");
    const replicas = await run('submit', CLOSURE_RUNCARD, '--replicas', '3-1', '--dry-run');
    expect(replicas.code).toBe(1);
    expect(replicas.error).toContain("--replicas: '3-1' is not a replica");
  });
});

const HYPEROPT_RUNCARD = fileURLToPath(new URL('../../../examples/hyperopt.yml', import.meta.url));

describe('partonfit submit --hyperopt', () => {
  it('should print the job array of tasks joining one scan on --dry-run and write nothing', async () => {
    const output = await mkdtemp(join(tmpdir(), 'partonfit-submit-scan-'));
    const result = await run(
      'submit',
      HYPEROPT_RUNCARD,
      '--hyperopt',
      '40',
      '--tasks',
      '3',
      '--trials-per-model',
      '4',
      '--replicas',
      '2',
      '--sampler',
      'random',
      '--backend',
      'cpu',
      '--output',
      output,
      '--time',
      '4:00:00',
      '--dry-run',
    );
    expect(result.error).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^# \S+\/hyperopt\/slurm\/scan-array\.sbatch: 3 task\(s\) sharing 40 trial\(s\) in 10 batch\(es\)\n/,
    );
    expect(result.out).toContain('#SBATCH --array=0-2\n');
    expect(result.out).toContain('#SBATCH --time=4:00:00\n');
    expect(result.out).toContain(
      ` hyperopt ${HYPEROPT_RUNCARD} --trials 40 --trials-per-model 4 --replicas 2 --sampler random --output ${output} --join --backend cpu &\n`,
    );
    expect(result.out).not.toContain('postfit');
    expect(await readdir(output)).toEqual([]);
  });

  it('should say when tasks outnumber the batches', async () => {
    const result = await run(
      'submit',
      HYPEROPT_RUNCARD,
      '--hyperopt',
      '4',
      '--tasks',
      '6',
      '--dry-run',
    );
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'note: 5 of the 6 tasks will find no batch to train (1 batch(es) of --trials-per-model)',
    );
  });

  it('should refuse a replica selection, fit options, a missing or bad --tasks, and a runcard without a scan', async () => {
    const scan = ['submit', HYPEROPT_RUNCARD, '--hyperopt', '8', '--dry-run'];
    const replicas = await run(...scan, '--tasks', '2', '--replicas', '1-100');
    expect(replicas.code).toBe(2);
    expect(replicas.error).toContain(
      "partonfit submit: --replicas: with --hyperopt it is the number of replicas of every trial on every fold, a positive integer, got '1-100' (a replica selection such as 1-100 is for fits)",
    );
    const perTask = await run(...scan, '--tasks', '2', '--per-task', '10');
    expect(perTask.code).toBe(2);
    expect(perTask.error).toContain('--per-task is for fits');
    const missing = await run(...scan);
    expect(missing.code).toBe(2);
    expect(missing.error).toContain('--tasks: how many SLURM tasks share the scan');
    const none = await run(...scan, '--tasks', '0');
    expect(none.code).toBe(2);
    expect(none.error).toContain("--tasks: expected a positive integer, got '0'");
    const sampler = await run(...scan, '--tasks', '2', '--sampler', 'grid');
    expect(sampler.code).toBe(2);
    expect(sampler.error).toContain("--sampler: expected one of tpe, random, got 'grid'");
    const fit = await run(
      'submit',
      CLOSURE_RUNCARD,
      '--hyperopt',
      '8',
      '--tasks',
      '2',
      '--dry-run',
    );
    expect(fit.code).toBe(1);
    expect(fit.error).toContain('kfold: a scan needs kfold.partitions');
    expect(fit.error).toContain('hyperscan_config: a scan needs a search space');
    const tasks = await run('submit', CLOSURE_RUNCARD, '--tasks', '2', '--dry-run');
    expect(tasks.code).toBe(2);
    expect(tasks.error).toContain('--tasks is for scans: give --hyperopt N');
  });
});

describe('partonfit status', () => {
  it('should say when a folder holds no replica ranges', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-status-'));
    const result = await run('status', folder);
    expect(result.code).toBe(0);
    expect(result.out).toBe(
      `${folder}: no replica ranges (no slurm/tasks.json, checkpoint or summary)\n`,
    );
  });
});
