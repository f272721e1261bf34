import { join } from 'node:path';
import {
  InvalidArgumentError,
  maxAbsDifference,
  matrixFromRows,
  ShapeError,
  type Matrix,
} from '@partonfit/core';
import { loadNpz, npyAsFloat64 } from '@partonfit/io';
import { describe, expect, it } from 'vitest';
import { syntheticCommonData } from '../commondata/commondata.fixture.js';
import { loadCommonData, loadLegacyCommonData, type CommonData } from '../commondata/index.js';
import { applyPointMask, kinematicCutMask } from '../cuts/index.js';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { covarianceBlocks, covarianceMatrix } from './covariance-matrix.js';

/**
 * Three datasets with every kind of uncertainty. A (2 points, D = 10, 20): stat, a
 * THEORYUNCORR, a MULT CORR (10 %, 20 %), a THEORYCORR, a SKIP and a MULT special LUMI (5 %).
 * B (1 point, D = 5): stat and LUMI (5 %). C (1 point, D = 1): stat and an ADD CORR.
 */
const A = syntheticCommonData({
  name: 'A',
  central: [10, 20],
  uncertainties: [
    { name: 'stat', treatment: 'ADD', type: 'UNCORR', values: [1, 2] },
    { treatment: 'ADD', type: 'THEORYUNCORR', values: [0.5, 0] },
    { treatment: 'MULT', type: 'CORR', values: [1, 4] },
    { treatment: 'ADD', type: 'THEORYCORR', values: [0.3, -0.3] },
    { treatment: 'ADD', type: 'SKIP', values: [100, 100] },
    { treatment: 'MULT', type: 'LUMI', values: [0.5, 1] },
  ],
});
const B = syntheticCommonData({
  name: 'B',
  central: [5],
  uncertainties: [
    { name: 'stat', treatment: 'ADD', type: 'UNCORR', values: [0.5] },
    { treatment: 'MULT', type: 'LUMI', values: [0.25] },
  ],
});
const C = syntheticCommonData({
  name: 'C',
  central: [1],
  uncertainties: [
    { name: 'stat', treatment: 'ADD', type: 'UNCORR', values: [0.1] },
    { treatment: 'ADD', type: 'CORR', values: [0.2] },
  ],
});

const TOLERANCE = 1e-13;

describe('covarianceMatrix: hand-computed', () => {
  it('should add uncorrelated errors on the diagonal and correlated ones as σσᵀ, skipping SKIP', () => {
    // A00 = 1 + 0.25 + 1 + 0.09 + 0.25; A11 = 4 + 0 + 16 + 0.09 + 1; A01 = 1·4 − 0.09 + 0.5·1;
    // B = 0.25 + 0.0625; A–B through LUMI: 0.5·0.25, 1·0.25; C = 0.01 + 0.04.
    const expected = matrixFromRows([
      [2.59, 4.41, 0.125, 0],
      [4.41, 21.09, 0.25, 0],
      [0.125, 0.25, 0.3125, 0],
      [0, 0, 0, 0.05],
    ]);
    expect(maxAbsDifference(covarianceMatrix([A, B, C]), expected)).toBeLessThan(TOLERANCE);
  });

  it('should rescale MULT errors to the t0 predictions', () => {
    // With t0 = (20, 10), (4), (2): CORR 10 %, 20 % → 2, 2; LUMI 5 % → 1, 0.5 and 0.2.
    // A00 = 1 + 0.25 + 4 + 0.09 + 1; A11 = 4 + 4 + 0.09 + 0.25; A01 = 4 − 0.09 + 0.5.
    const expected = matrixFromRows([
      [6.34, 4.41, 0.2, 0],
      [4.41, 8.34, 0.1, 0],
      [0.2, 0.1, 0.29, 0],
      [0, 0, 0, 0.05],
    ]);
    const t0Predictions = [
      Float64Array.from([20, 10]),
      Float64Array.from([4]),
      Float64Array.from([2]),
    ];
    expect(maxAbsDifference(covarianceMatrix([A, B, C], { t0Predictions }), expected)).toBeLessThan(
      TOLERANCE,
    );
  });

  it('should divide by the square roots of the dataset weights', () => {
    // Weights 2, 1, 4: A's block / 2, A–B / √2, C / 4.
    const r = Math.SQRT1_2;
    const expected = matrixFromRows([
      [2.59 / 2, 4.41 / 2, 0.125 * r, 0],
      [4.41 / 2, 21.09 / 2, 0.25 * r, 0],
      [0.125 * r, 0.25 * r, 0.3125, 0],
      [0, 0, 0, 0.05 / 4],
    ]);
    expect(
      maxAbsDifference(covarianceMatrix([A, B, C], { weights: [2, 1, 4] }), expected),
    ).toBeLessThan(TOLERANCE);
  });

  it('should give the blocks the full matrix is made of', () => {
    const blocks = covarianceBlocks([A, B, C]);
    expect(blocks.map(({ offset, size, datasets }) => ({ offset, size, datasets }))).toEqual([
      { offset: 0, size: 3, datasets: [0, 1] },
      { offset: 3, size: 1, datasets: [2] },
    ]);
    expect(blocks[1].covariance.data[0]).toBeCloseTo(0.05, 15);
  });

  it('should correlate the k-th occurrence of a special name with the k-th one elsewhere', () => {
    const twice = (name: string, first: number, second: number) =>
      syntheticCommonData({
        name,
        central: [1],
        uncertainties: [
          { treatment: 'ADD', type: 'NORM', values: [first] },
          { treatment: 'ADD', type: 'NORM', values: [second] },
        ],
      });
    // Off-diagonal: 1·3 + 2·4.
    expect(Array.from(covarianceMatrix([twice('P', 1, 2), twice('Q', 3, 4)]).data)).toEqual([
      5, 11, 11, 25,
    ]);
  });

  it('should refuse t0 predictions and weights that do not fit', () => {
    expect(() => covarianceMatrix([A, B], { t0Predictions: [new Float64Array(2)] })).toThrow(
      ShapeError,
    );
    expect(() =>
      covarianceMatrix([A, B], { t0Predictions: [new Float64Array(2), new Float64Array(2)] }),
    ).toThrow('t0Predictions of B: expected shape [1] (data), got [2]');
    expect(() =>
      covarianceMatrix([B], { t0Predictions: [Float64Array.from([Number.NaN])] }),
    ).toThrow(InvalidArgumentError);
    expect(() => covarianceMatrix([A, B], { weights: [1, 0] })).toThrow(
      'the weight of B must be a positive number, got 0',
    );
    expect(() => covarianceMatrix([A, B], { weights: [1] })).toThrow(ShapeError);
  });
});

const COMMONDATA = join(SHARED_DATA, 'commondata');
const hasShared =
  hasSharedData('bundles/SLACP.npz', 'npz bundles') &&
  hasSharedData('commondata/SLAC_NC_NOTFIXED_P/metadata.yaml', 'real commondata');

/** The `covmat` and `D` of an npz bundle. */
async function bundle(name: string): Promise<{ covariance: Matrix; central: Float64Array }> {
  const file = join(SHARED_DATA, 'bundles', `${name}.npz`);
  const arrays = await loadNpz(file);
  const covmat = arrays.get('covmat');
  const central = arrays.get('D');
  if (covmat === undefined || central === undefined) throw new Error(`${file} lacks covmat or D`);
  const ndata = covmat.shape[0];
  return {
    covariance: {
      rows: ndata,
      columns: ndata,
      data: npyAsFloat64(covmat, { file, key: 'covmat' }),
    },
    central: npyAsFloat64(central, { file, key: 'D' }),
  };
}

/** max |C_ij − R_ij| / √(R_ii R_jj): the difference in units of the reference errors. */
function maxRelativeDifference(covariance: Matrix, reference: Matrix): number {
  const n = reference.rows;
  let largest = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const scale = Math.sqrt(reference.data[i * n + i] * reference.data[j * n + j]);
      largest = Math.max(
        largest,
        Math.abs(covariance.data[i * n + j] - reference.data[i * n + j]) / scale,
      );
    }
  }
  return largest;
}

async function withDefaultCuts(promise: Promise<CommonData>): Promise<CommonData> {
  const data = await promise;
  return applyPointMask(data, kinematicCutMask(data));
}

describe.skipIf(!hasShared)(
  'covarianceMatrix: the npz bundles are the experimental covariance after cuts',
  () => {
    for (const [name, dataset, variant] of [
      ['SLACP', 'SLAC_NC_NOTFIXED_P_EM-F2', 'legacy'],
      ['SLACP', 'SLAC_NC_NOTFIXED_P_EM-F2', 'legacy_dw'],
      ['HERACOMBCCEM', 'HERA_CC_318GEV_EM-SIGMARED', 'legacy'],
      ['HERACOMBCCEM', 'HERA_CC_318GEV_EM-SIGMARED', undefined],
      ['HERACOMBNCEP920', 'HERA_NC_318GEV_EP-SIGMARED', undefined],
    ] as const) {
      it(`should reproduce ${name} from ${dataset} (variant ${variant ?? 'none'})`, async () => {
        const data = await withDefaultCuts(
          loadCommonData(COMMONDATA, dataset, variant === undefined ? {} : { variant }),
        );
        const reference = await bundle(name);
        expect(data.central).toEqual(reference.central);
        expect(maxRelativeDifference(covarianceMatrix([data]), reference.covariance)).toBeLessThan(
          1e-14,
        );
      });
    }

    it('should differ from the bundle with t0 predictions other than the data (the bundle is not a t0 covariance)', async () => {
      const data = await withDefaultCuts(loadCommonData(COMMONDATA, 'SLACP'));
      const reference = await bundle('SLACP');
      const t0 = data.central.map((value) => 1.1 * value);
      expect(
        maxRelativeDifference(
          covarianceMatrix([data], { t0Predictions: [t0] }),
          reference.covariance,
        ),
      ).toBeGreaterThan(1e-3);
      expect(
        maxRelativeDifference(
          covarianceMatrix([data], { t0Predictions: [data.central] }),
          reference.covariance,
        ),
      ).toBeLessThan(1e-14);
    });

    it('should give the legacy files the covariance of the YAML format', async () => {
      for (const [legacy, dataset] of [
        ['SLACP', 'SLACP'],
        ['HERACOMBCCEM', 'HERACOMBCCEM'],
        ['NMC', 'NMC'],
      ] as const) {
        const old = await loadLegacyCommonData(
          join(SHARED_DATA, 'commondata_legacy', `DATA_${legacy}.dat`),
        );
        const current = await loadCommonData(COMMONDATA, dataset);
        expect(
          maxRelativeDifference(covarianceMatrix([old]), covarianceMatrix([current])),
        ).toBeLessThan(1e-14);
      }
    });
  },
);
