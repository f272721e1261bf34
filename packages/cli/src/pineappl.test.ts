import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/pineappl-dis.yml', import.meta.url));
const PDF = `${SHARED_DATA}lhapdf/NNPDF40_nnlo_as_01180`;
const TABLE = `${SHARED_DATA}theory_208/fastkernel/HERA_CC_318GEV_EM_SIGMARED.pineappl.lz4`;
const present =
  hasSharedData('theory_208/fastkernel', 'the PineAPPL command-line tests') &&
  hasSharedData('lhapdf/NNPDF40_nnlo_as_01180', 'the PineAPPL command-line tests');

/** examples/pineappl-dis.yml with absolute data paths and `epochs`, in a fresh folder. */
async function exampleRuncard(epochs: number): Promise<{ folder: string; runcard: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-pineappl-'));
  const text = (await readFile(EXAMPLE, 'utf8'))
    .replaceAll(/(?:\.\.\/)+shared\/data\//g, SHARED_DATA)
    .replaceAll(/(?:\.\.\/)+shared\/data\b/g, SHARED_DATA.slice(0, -1))
    .replace('epochs: 2000', `epochs: ${epochs}`);
  const runcard = join(folder, 'pineappl-dis.yml');
  await writeFile(runcard, text);
  return { folder, runcard };
}

interface PredictJson {
  predictions: number[];
  ndata: number;
  chi2?: number;
}

async function predictJson(...args: string[]): Promise<PredictJson> {
  const { code, out, error } = await run('predict', '--pdf', PDF, '--json', ...args);
  expect(error).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as PredictJson;
}

describe.skipIf(!present)('PineAPPL FK tables on the command line', () => {
  it('should predict a .pineappl.lz4 file and the dataset that names it alike', async () => {
    const table = await predictJson('--fktable', TABLE);
    expect(table.ndata).toBe(42);
    const { runcard } = await exampleRuncard(10);
    const dataset = await predictJson(
      '--runcard',
      runcard,
      '--dataset',
      'HERA_CC_318GEV_EM-SIGMARED',
    );
    expect(dataset.predictions).toEqual(table.predictions);
    // NLO theory 208 against the data: χ²/n = 1.34 (theory 200's NNLO bundle: 1.27)
    expect((dataset.chi2 ?? 0) / 42).toBeGreaterThan(1.2);
    expect((dataset.chi2 ?? 0) / 42).toBeLessThan(1.5);
  });

  it('should fit the runcard that names HERA_CC_318GEV_EM-SIGMARED with theory 208', async () => {
    const { folder, runcard } = await exampleRuncard(40);
    const output = join(folder, 'fits');
    const result = await fitOnCpu(runcard, '1', output);
    expect(result.error).not.toContain('partonfit fit:');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/fit pineappl-dis: 1 replica\(s\) on cpu, 40 epochs/);
    expect(result.out).toMatch(/HERA_CC_318GEV_EM-SIGMARED +\d+\.\d+/);
    const summary = JSON.parse(
      await readFile(join(output, 'pineappl-dis', 'summary.json'), 'utf8'),
    ) as { replicas: number[] };
    expect(summary.replicas).toEqual([1]);
  });
});
