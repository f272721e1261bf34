import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { runCaptured as run } from './cli.fixture.js';

const PDF = `${SHARED_DATA}lhapdf/NNPDF40_nnlo_as_01180`;
const present = hasSharedData('lhapdf/NNPDF40_nnlo_as_01180', 'the partonfit predict tests');

interface PredictJson {
  predictions: number[];
  ndata: number;
  chi2?: number;
  data?: number[];
}

async function predictJson(...args: string[]): Promise<PredictJson> {
  const { code, out, error } = await run('predict', '--pdf', PDF, '--json', ...args);
  expect(error).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as PredictJson;
}

describe.skipIf(!present)('partonfit predict', () => {
  it('should predict an FK table, plain or as NNPDF ships it, with the known numbers', async () => {
    for (const folder of ['fastkernel', 'fastkernel_tar']) {
      const result = await predictJson(
        '--fktable',
        `${SHARED_DATA}theory_200/${folder}/FK_POSXDQ.dat`,
      );
      expect(result.ndata).toBe(20);
      expect(result.predictions[0] / 1.24252).toBeCloseTo(1, 4);
      expect(result.predictions[1] / 1.05899).toBeCloseTo(1, 4);
      expect(result.chi2).toBeUndefined();
    }
    const atlas = await predictJson(
      '--fktable',
      `${SHARED_DATA}theory_200/fastkernel/FK_ATLASTTBARTOT13TEV.dat`,
    );
    expect(atlas.predictions[0] / 750.62).toBeCloseTo(1, 4);
  });

  it('should give the χ² of a bundle against its data', async () => {
    const result = await predictJson('--bundle', `${SHARED_DATA}bundles/SLACP.npz`);
    expect(result.ndata).toBe(33);
    expect(result.chi2 ?? 0).toBeCloseTo(35.77, 1);
    const table = await run(
      'predict',
      '--pdf',
      PDF,
      '--bundle',
      `${SHARED_DATA}bundles/HERACOMBCCEM.npz`,
    );
    expect(table.out).toContain('bundle ');
    expect(table.out).toMatch(/χ² = 53\.28\d for 42 points, χ²\/n = 1\.268\d/);
  });

  it('should resolve a runcard dataset with its data paths and cuts', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-predict-'));
    const runcard = join(folder, 'runcard.yml');
    await writeFile(
      runcard,
      [
        'dataset_inputs: [{ dataset: SLACP }]',
        `data_paths: { commondata: ${SHARED_DATA}commondata }`,
        'trvlseed: 1',
        'nnseed: 2',
        'mcseed: 3',
        'parameters: { nodes_per_layer: [8], activation_per_layer: [linear], optimizer: { optimizer_name: Adam }, epochs: 10, stopping_patience: 0.1 }',
        'fitting:',
        '  fitbasis: EVOL',
        '  basis:',
        ...['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map(
          (fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`,
        ),
      ].join('\n'),
    );
    // SLAC data through commondata (legacy name → variant legacy) with a table of another size.
    const atlas = await predictJson(
      '--runcard',
      runcard,
      '--dataset',
      `{dataset: ATLAS_TTBAR_13TEV_TOT_X-SEC, variant: legacy, fktables: [${SHARED_DATA}theory_200/fastkernel/FK_ATLASTTBARTOT13TEV.dat]}`,
    );
    expect(atlas.ndata).toBe(1);
    expect(atlas.predictions[0] / 750.62).toBeCloseTo(1, 4);
    expect(atlas.data?.[0]).toBeGreaterThan(800);
    expect(atlas.chi2).toBeGreaterThan(0);
    const spec = `{dataset: SLACP, fktables: [${SHARED_DATA}theory_200/fastkernel/FK_POSXDQ.dat]}`;
    const mismatch = await run('predict', '--pdf', PDF, '--runcard', runcard, '--dataset', spec);
    expect(mismatch.code).toBe(1);
    expect(mismatch.error).toContain('the data have 211 points but the FK tables predict 20');
  });

  it('should explain wrong usage and bad input', async () => {
    expect((await run('predict', '--bundle', 'x.npz')).error).toContain('missing --pdf');
    expect((await run('predict', '--pdf', PDF)).code).toBe(2);
    expect(await run('predict', '--pdf', PDF, '--member', 'abc', '--fktable', 'x')).toMatchObject({
      code: 2,
      error: expect.stringMatching(
        /^partonfit predict: --member: expected a member number ≥ 0, got 'abc'\nusage: /,
      ) as string,
    });
    const missing = await run('predict', '--pdf', PDF, '--fktable', '/nonexistent/FK_X.dat');
    expect(missing.code).toBe(1);
    expect(missing.error).toContain('/nonexistent/FK_X.dat');
    const absent = await run('predict', '--pdf', PDF, '--member', '7', '--fktable', 'x');
    expect(absent.code).toBe(1);
    expect(absent.error).toContain('NNPDF40_nnlo_as_01180_0007.dat: cannot read the file');
    const beyond = await run('predict', '--pdf', PDF, '--member', '200', '--fktable', 'x');
    expect(beyond.error).toContain('has members 0 to 100, got 200');
  });
});
