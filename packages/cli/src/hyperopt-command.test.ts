import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCaptured as run } from './cli.fixture.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/hyperopt.yml', import.meta.url));

describe('partonfit hyperopt', () => {
  let folder: string;
  let runcard: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-hyperopt-'));
    runcard = join(folder, 'scan.yml');
    const text = (await readFile(EXAMPLE, 'utf8'))
      .replace('min_epochs: 1000', 'min_epochs: 20')
      .replace('max_epochs: 4000', 'max_epochs: 30')
      .replace('threshold: 50', 'threshold: 1.0e6');
    await writeFile(runcard, text);
  });

  it('scans, reports each batch and the best trial, and writes tries.json', async () => {
    const output = join(folder, 'scans');
    const { code, out, error } = await run(
      'hyperopt',
      runcard,
      '--trials',
      '3',
      '--trials-per-model',
      '2',
      '--backend',
      'cpu',
      '--output',
      output,
    );
    expect(error).toContain('scanning 3 trials × 3 folds × 1 replica(s), 2 trials per model');
    expect(error).toMatch(/batch 1\/2: trials 0–1 in [\d.]+ s, 2 ok/);
    expect(error).toMatch(/batch 2\/2: trials 2–2 in [\d.]+ s, 1 ok/);
    expect(code).toBe(0);
    const tries = JSON.parse(
      await readFile(join(output, 'scan', 'hyperopt', 'tries.json'), 'utf8'),
    ) as {
      tid: number;
      result: { loss: number };
    }[];
    expect(tries.map((trial) => trial.tid)).toEqual([0, 1, 2]);
    const best = tries.reduce((a, b) => (b.result.loss < a.result.loss ? b : a));
    expect(out).toContain(`best: trial ${best.tid}, loss ${best.result.loss.toPrecision(6)}`);
  });

  it('says what is wrong with the command line', async () => {
    const missing = await run('hyperopt', runcard);
    expect(missing.code).toBe(2);
    expect(missing.error).toContain('--trials: how many trials to run');
    const sampler = await run('hyperopt', runcard, '--trials', '2', '--sampler', 'grid');
    expect(sampler.code).toBe(2);
    expect(sampler.error).toContain("--sampler: expected one of tpe, random, got 'grid'");
  });

  it('refuses a runcard without a search space, naming the key', async () => {
    const plain = join(folder, 'plain.yml');
    await writeFile(
      plain,
      (await readFile(runcard, 'utf8')).replace(/hyperscan_config:\n(?: {2}.*\n)+/, ''),
    );
    const { code, error } = await run(
      'hyperopt',
      plain,
      '--trials',
      '2',
      '--backend',
      'cpu',
      '--output',
      folder,
    );
    expect(code).toBe(1);
    expect(error).toContain('hyperscan_config: a scan needs a search space');
  });
});
