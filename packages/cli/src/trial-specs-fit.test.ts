import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { readHdf5File } from '@partonfit/io';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** What the example's scan gives replicas 1–4: the trials of rank 1, 2, 3, 0 (r mod 4). */
const TRIALS = [
  { tid: 6, optimizer: 'RMSprop', nodes: [30, 30, 8] },
  { tid: 3, optimizer: 'Adam', nodes: [35, 25, 8] },
  { tid: 4, optimizer: 'Amsgrad', nodes: [20, 15, 8] },
  { tid: 2, optimizer: 'Nadam', nodes: [25, 20, 8] },
];

async function exportGridRows(fit: string, replica: number): Promise<number[][]> {
  const file = join(fit, 'nnfit', `replica_${replica}`, 'sampled.exportgrid');
  return (parse(await readFile(file, 'utf8')) as { pdfgrid: number[][] }).pdfgrid;
}

function worstRelative(a: number[][], b: number[][]): number {
  let worst = 0;
  a.forEach((row, i) => {
    row.forEach((value, f) => {
      const other = b[i][f];
      worst = Math.max(worst, Math.abs(value - other) / Math.max(Math.abs(other), 1e-8));
    });
  });
  return worst;
}

describe('partonfit fit with trial_specs (examples/hyperopt-sampled.yml)', () => {
  let folder: string;
  let runcard: string;
  let fit: string;
  let cache: string;

  beforeAll(async () => {
    cache = await mkdtemp(join(tmpdir(), 'partonfit-trials-cache-'));
    vi.stubEnv('XDG_CACHE_HOME', cache);
    folder = await mkdtemp(join(tmpdir(), 'partonfit-trials-'));
    await cp(join(EXAMPLES, 'hyperopt-sampled'), join(folder, 'scan'), { recursive: true });
    // the example's trials, 150 epochs each (trial_specs.override as n3fit reads it)
    const text = (await readFile(join(EXAMPLES, 'hyperopt-sampled.yml'), 'utf8'))
      .replace('hyperscan: hyperopt-sampled', 'hyperscan: scan')
      .replace('number_of_trials: 4', 'number_of_trials: 4\n  override: { epochs: 150 }');
    runcard = join(folder, 'sampled.yml');
    await writeFile(runcard, text);
    const fitted = await fitOnCpu(runcard, '1-4', folder);
    if (fitted.code !== 0) throw new Error(`the fit failed: ${fitted.error}`);
    fit = join(folder, 'sampled');
  }, 300_000);

  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(folder, { recursive: true, force: true });
    await rm(cache, { recursive: true, force: true });
  });

  it("should give replica r the scan's trial of rank r mod N, recorded in its JSON and weights", async () => {
    expect(await readFile(join(fit, 'hyperscan', 'tries.json'), 'utf8')).toBe(
      await readFile(join(folder, 'scan', 'tries.json'), 'utf8'),
    );
    for (const [r, expected] of TRIALS.entries()) {
      const replica = join(fit, 'nnfit', `replica_${r + 1}`);
      const json = JSON.parse(await readFile(join(replica, 'sampled.json'), 'utf8')) as {
        hyperparameters: Record<string, unknown> & { trial: Record<string, unknown> };
      };
      expect(json.hyperparameters).toMatchObject({
        optimizer: expected.optimizer,
        nodes_per_layer: expected.nodes,
        epochs: 150,
        entry: r,
        trial: { tid: expected.tid, rank: (r + 1) % 4 },
      });
      const weights = await readHdf5File(join(replica, 'weights.h5'));
      expect(weights.attributes.nodes_per_layer).toEqual(expected.nodes);
      expect(weights.datasets.get('network/kernel_1')?.shape).toEqual(expected.nodes.slice(0, 2));
    }
  });

  it('should export, predict, evolve and report from the fit folder alone, the scan gone', async () => {
    await rename(join(folder, 'scan'), join(folder, 'scan-moved'));
    try {
      const before = await Promise.all([1, 2, 3, 4].map((r) => exportGridRows(fit, r)));
      const exported = await run('export', fit, '--tfjs');
      expect(exported.error).not.toContain('partonfit export:');
      expect(exported.code).toBe(0);
      const after = await Promise.all([1, 2, 3, 4].map((r) => exportGridRows(fit, r)));
      expect(after).toEqual(before);
      const model = JSON.parse(
        await readFile(join(fit, 'nnfit', 'replica_3', 'tfjs', 'model.json'), 'utf8'),
      ) as { weightsManifest: { weights: { name: string; shape: number[] }[] }[] };
      const kernels = model.weightsManifest[0].weights.filter(({ name }) =>
        name.endsWith('kernel'),
      );
      expect(kernels.map(({ shape }) => shape).slice(0, 3)).toEqual([
        [2, 20],
        [20, 15],
        [15, 8],
      ]);
      const predicted = await run('predict', '--json', '--pdf', fit, '--dataset', 'CLOSURE_F2P');
      expect(predicted.code).toBe(0);
      const members = (JSON.parse(predicted.out) as { replicaPredictions: unknown[] })
        .replicaPredictions;
      expect(members).toHaveLength(4);
      const evolved = await run('evolve', fit);
      expect(evolved.code).toBe(0);
      expect(evolved.out).toContain('evolving 4 replica(s) of sampled (nnfit)');
      const report = await run('report', fit);
      expect(report.code).toBe(0);
      const html = await readFile(join(fit, 'report', 'index.html'), 'utf8');
      expect(html).toContain('Hyperparameters of each replica');
      expect(html).toContain('<th>trial</th>');
    } finally {
      await rename(join(folder, 'scan-moved'), join(folder, 'scan'));
    }
  });

  it('should fit the same replicas in two processes as in one (replica r keeps its trial)', async () => {
    const split = join(folder, 'split');
    for (const replicas of ['1-2', '3-4']) {
      const part = await fitOnCpu(runcard, replicas, split);
      expect(part.code).toBe(0);
    }
    for (const replica of [1, 2, 3, 4]) {
      expect(
        worstRelative(
          await exportGridRows(join(split, 'sampled'), replica),
          await exportGridRows(fit, replica),
        ),
      ).toBeLessThan(1e-5);
    }
  });
});
