import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCaptured as run } from './cli.fixture.js';

/** A trial document with what `partonfit status` reads of it. */
function trial(tid: number, status: 'ok' | 'fail', loss: number | null) {
  return {
    state: 2,
    tid,
    result: { status, loss },
    misc: {
      space_vals: {
        nodes_per_layer: [25, 12 + tid, 8],
        activation_per_layer: 'sigmoid',
        optimizer: { optimizer_name: 'Adam', learning_rate: 0.00412345, clipnorm: 1e-5 },
        epochs: 2000 + tid,
      },
    },
  };
}

describe('partonfit status of a scan folder', () => {
  it('should show the trials, the batches with their owners and the best trial', async () => {
    const output = await mkdtemp(join(tmpdir(), 'partonfit-status-scan-'));
    const folder = join(output, 'hyperopt');
    const batches = join(folder, 'hyperopt', 'batches');
    await mkdir(batches, { recursive: true });
    const settings = {
      runcardSha256: 'f'.repeat(64),
      trials_per_model: 2,
      replicas: 1,
      sampler: 'tpe',
      seed: 42,
      one_fold_per_model: false,
      trials: 7,
    };
    await writeFile(join(folder, 'hyperopt', 'scan.json'), JSON.stringify(settings));
    await writeFile(
      join(batches, 'batch_0000.json'),
      JSON.stringify([trial(0, 'fail', 81.5), trial(1, 'ok', 2.71828)]),
    );
    await writeFile(
      join(batches, 'batch_0001.json'),
      JSON.stringify([trial(2, 'ok', 3.5), trial(3, 'fail', null)]),
    );
    await writeFile(join(batches, 'batch_0002.claim'), 'pid 4242\n');
    const result = await run('status', folder);
    expect(result.error).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toBe(
      [
        `${folder}: hyperparameter scan of 7 trial(s), 2 per model`,
        '  trials   4 of 7 finished (2 ok, 2 failed)',
        '  batches  2 finished, 1 running, 1 left of 4',
        '    batch 2 (trials 4-5): pid 4242, training',
        '  best     trial 1, loss 2.71828: layers 25-13-8, activation sigmoid, Adam, learning rate 0.00412, 2001 epochs',
        '',
      ].join('\n'),
    );
  });
});
