import { mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRuncard } from '@partonfit/core';
import { evolutionBasisXf, loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chi2FromStructure } from '../splits/chi2-reference.js';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import type { FitInputs } from './fit-inputs.js';
import {
  predictFromTensors,
  realDataRuncard,
  writeTemporaryRuncard,
} from './fit-inputs.fixture.js';
import { prepareFitInputs } from './prepare-fit-inputs.js';

const present = hasSharedData('bundles/HERACOMBCCEM.npz', 'the fit-inputs tests on real data');

afterEach(() => {
  vi.unstubAllEnvs();
});

describe.skipIf(!present)('prepareFitInputs on real NNPDF inputs', () => {
  let runcardFile: string;
  let cacheFolder: string;
  let inputs: FitInputs;
  let xf: Float64Array;

  beforeAll(async () => {
    runcardFile = await writeTemporaryRuncard(realDataRuncard());
    cacheFolder = await mkdtemp(join(tmpdir(), 'partonfit-cache-'));
    const { runcard } = parseRuncard(realDataRuncard(), { file: runcardFile });
    ({ inputs } = await prepareFitInputs(runcard, {
      runcardFile,
      replicas: [1, 2, 3],
      cacheFolder,
    }));
    const set = await loadLhapdfSet(`${SHARED_DATA}lhapdf/NNPDF40_nnlo_as_01180`);
    xf = evolutionBasisXf(await loadLhapdfMember(set, 0), inputs.xGrid, inputs.q0);
  });

  it('should lay out the datasets, the shared x-grid and the positivity set', () => {
    expect(inputs.datasets.map(({ name, offset, ndata }) => [name, offset, ndata])).toEqual([
      ['HERACOMBCCEM', 0, 42],
      ['SLACP', 42, 33],
      ['ATLAS_TTBAR_13TEV_TOT_X-SEC', 75, 1],
    ]);
    expect(inputs.ndata).toBe(76);
    expect(inputs.q0).toBeCloseTo(1.65, 10);
    expect(inputs.positivity.map(({ name, ndata, maxLambda }) => [name, ndata, maxLambda])).toEqual(
      [['POSXDQ', 20, 1e6]],
    );
    // Each distinct grid appears once: the bundles' 18 nodes (if shared), ATLAS 30, POSXDQ 100.
    const grids = [
      ...inputs.datasets.flatMap((dataset) => dataset.observable.operands.flat()),
      ...inputs.positivity.flatMap((set) => set.observable.operands.flat()),
    ];
    const distinct = new Map(grids.map((table) => [table.xOffset, table.nx]));
    expect(inputs.xGrid.length).toBe([...distinct.values()].reduce((sum, nx) => sum + nx, 0));
    expect(inputs.sources.length).toBeGreaterThanOrEqual(6);
  });

  it('should reproduce the known predictions and χ² with NNPDF4.0 member 0', () => {
    const predictions = inputs.datasets.map((dataset) =>
      predictFromTensors(dataset.observable, xf),
    );
    expect(predictions[2][0]).toBeCloseTo(750.62, 1);
    const positivity = predictFromTensors(inputs.positivity[0].observable, xf);
    expect(positivity[0] / 1.24252).toBeCloseTo(1, 4);
    // Each bundle's own block of the experimental χ² gives the bundle's χ²; a bundle is a
    // block of its own, so its part of the whole χ² is the same.
    const residuals = new Float64Array(inputs.ndata);
    predictions.forEach((prediction, d) => {
      const { offset } = inputs.datasets[d];
      prediction.forEach(
        (value, n) => (residuals[offset + n] = inputs.centralData[offset + n] - value),
      );
    });
    const byDataset = inputs.experimentalByDataset;
    const own = (d: number) =>
      chi2FromStructure({ ...byDataset, blocks: [byDataset.blocks[d]] }, residuals)[0];
    const only = (d: number) =>
      residuals.map((value, i) => {
        const { offset, ndata } = inputs.datasets[d];
        return i >= offset && i < offset + ndata ? value : 0;
      });
    expect(own(0) / 53.28).toBeCloseTo(1, 3);
    expect(own(1) / 35.77).toBeCloseTo(1, 3);
    expect(chi2FromStructure(inputs.experimental, only(0))[0] / own(0)).toBeCloseTo(1, 6);
    expect(byDataset.blocks.map(({ offset, size }) => [offset, size])).toEqual([
      [0, 42],
      [42, 33],
      [75, 1],
    ]);
  });

  it('should give each replica its own pseudodata and a per-dataset split', () => {
    expect(inputs.pseudodata.length).toBe(3 * 76);
    expect(inputs.pseudodata[0]).not.toBe(inputs.pseudodata[76]);
    // floor(42·0.75) + floor(33·0.5) + (0 or 1 for the single ATLAS point).
    for (const count of inputs.trainingCounts) expect([47, 48]).toContain(count);
    inputs.trainingCounts.forEach((count, r) => {
      expect(count + inputs.validationCounts[r]).toBe(76);
    });
  });

  it('should read a second preparation from the cache, identical', async () => {
    const { runcard } = parseRuncard(realDataRuncard(), { file: runcardFile });
    const again = await prepareFitInputs(runcard, {
      runcardFile,
      replicas: [1, 2, 3],
      cacheFolder,
    });
    expect(again.cached).toBe(true);
    expect(again.inputs).toEqual(inputs);
    const other = await prepareFitInputs(runcard, { runcardFile, replicas: [2], cacheFolder });
    expect(other.cached).toBe(false);
    expect(Array.from(other.inputs.pseudodata)).toEqual(
      Array.from(inputs.pseudodata.subarray(76, 152)),
    );
  });

  it('should count the closure-test PDF among the inputs whose change invalidates the cache', async () => {
    const text = realDataRuncard(
      'closuretest: { fakedata: true, fakepdf: NNPDF40_nnlo_as_01180 }',
    ).replace(/datacuts: .*\n/, '');
    const { runcard } = parseRuncard(text, { file: runcardFile });
    const truth = await prepareFitInputs(runcard, {
      runcardFile,
      replicas: [1],
      cacheFolder: null,
    });
    const member = `${SHARED_DATA}lhapdf/NNPDF40_nnlo_as_01180/NNPDF40_nnlo_as_01180_0000.dat`;
    expect(truth.inputs.sources).toContain(member);
    expect(truth.inputs.t0PdfSet).toBeUndefined();
  });

  it('should find a positivity set by its FK table when the commondata folder lacks it', async () => {
    const commondata = await mkdtemp(join(tmpdir(), 'partonfit-commondata-'));
    await symlink(
      `${SHARED_DATA}commondata/ATLAS_TTBAR_13TEV_TOT`,
      join(commondata, 'ATLAS_TTBAR_13TEV_TOT'),
    );
    const text = realDataRuncard().replace(/ {2}commondata: .*\n/, `  commondata: ${commondata}\n`);
    const { runcard } = parseRuncard(text, { file: runcardFile });
    const prepared = await prepareFitInputs(runcard, {
      runcardFile,
      replicas: [1],
      cacheFolder: null,
    });
    const [positivity] = prepared.inputs.positivity;
    expect([positivity.name, positivity.ndata]).toEqual(['POSXDQ', 20]);
    const misspelt = parseRuncard(text.replace('POSXDQ', 'POSXDX'), { file: runcardFile });
    await expect(
      prepareFitInputs(misspelt.runcard, { runcardFile, replicas: [1], cacheFolder: null }),
    ).rejects.toThrow(/POSXDX/);
  });

  it('should look for the t0 set in the data folder without data_paths.lhapdf, naming the get command', async () => {
    const data = await mkdtemp(join(tmpdir(), 'partonfit-data-'));
    vi.stubEnv('PARTONFIT_DATA', data);
    const text = realDataRuncard().replace(/ {2}lhapdf: .*\n/, '');
    const { runcard } = parseRuncard(text, { file: runcardFile });
    await expect(
      prepareFitInputs(runcard, { runcardFile, replicas: [1], cacheFolder: null }),
    ).rejects.toThrow(
      `${join(data, 'lhapdf', 'NNPDF40_nnlo_as_01180')}: no LHAPDF set NNPDF40_nnlo_as_01180 here; \`partonfit get pdf NNPDF40_nnlo_as_01180\` downloads it`,
    );
  });
});
