import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
