import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMatrix, parseRuncard } from '@partonfit/core';
import {
  formatCovarianceTable,
  prepareFitInputs,
  scaleCombinationsOf,
  type FitInputs,
} from '@partonfit/fktables';
import {
  writeScaleVariedTheories,
  type ScaleVariedTheories,
} from '@partonfit/testing/scale-varied-theories';
import { chi2BySolve } from '@partonfit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitQuality } from './closure-metrics.js';

const range = (first: number, end: number) =>
  Array.from({ length: end - first }, (_, i) => first + i);

/** The fixture's central data: 0.4 + 0.05·n at point n of each set. */
const CENTRAL = [0.4, 0.45, 0.5, 0.55, 0.4, 0.45, 0.5];
const NDATA = CENTRAL.length;
/** The fixture's TOY_NC_F2 (points 0–3) and TOY_CC_F2 (points 4–6). */
const datasetOf = (i: number) => (i < 4 ? 0 : 1);

/**
 * A hand-built theory covariance: a 10 % shift common to every point of both datasets, plus
 * 1 % uncorrelated, so that it correlates the datasets more strongly than C correlates a
 * dataset's own points.
 */
const theory = (i: number, j: number) =>
  0.1 * CENTRAL[i] * 0.1 * CENTRAL[j] + (i === j ? (0.01 * CENTRAL[i]) ** 2 : 0);

let theories: ScaleVariedTheories;
let inputs: FitInputs;

beforeAll(async () => {
  theories = await writeScaleVariedTheories(scaleCombinationsOf(['7 point']));
  const table = join(theories.folder, 'theory_covariance.csv');
  const points = range(0, NDATA).map((i) => ({
    group: datasetOf(i) === 0 ? 'DIS NC' : 'DIS CC',
    dataset: datasetOf(i) === 0 ? 'TOY_NC_F2' : 'TOY_CC_F2',
    id: datasetOf(i) === 0 ? i : i - 4,
  }));
  const covariance = createMatrix(
    NDATA,
    NDATA,
    Float64Array.from({ length: NDATA * NDATA }, (_, k) =>
      theory(Math.floor(k / NDATA), k % NDATA),
    ),
  );
  await writeFile(table, formatCovarianceTable({ points, covariance }));
  const text = theories.runcard(`theorycovmatconfig:
  user_covmat_path: ${table}
  use_thcovmat_in_fitting: true
`);
  const file = join(theories.folder, 'runcard.yml');
  await writeFile(file, text);
  const { runcard } = parseRuncard(text, { file });
  ({ inputs } = await prepareFitInputs(runcard, {
    runcardFile: file,
    replicas: [1, 2],
    cacheFolder: null,
  }));
});
afterAll(async () => theories.remove());

describe('fitQuality with a theory covariance in the fit’s χ²', () => {
  it('should give each dataset rᵀ (C_dd + S_dd)⁻¹ r / n_d, the whole χ² with C + S and with C alone', () => {
    expect(Array.from(inputs.centralData)).toEqual(CENTRAL);
    // Two replicas around the data: their average misses point n by 5 % · sin(n + 1).
    const miss = (n: number) => 0.05 * Math.sin(n + 1);
    const predictions = Float64Array.from({ length: 2 * NDATA }, (_, k) => {
      const n = k % NDATA;
      return CENTRAL[n] * (1 + miss(n) + (k < NDATA ? 0.01 : -0.01));
    });
    const residual = Float64Array.from(CENTRAL, (value, n) => -value * miss(n));
    // The fixture's C (no t0 set, no weights): stat 5 % uncorrelated, sys_norm 2 % correlated
    // within each dataset.
    const experimental = (i: number, j: number) =>
      (i === j ? (0.05 * CENTRAL[i]) ** 2 : 0) +
      (datasetOf(i) === datasetOf(j) ? 0.02 * CENTRAL[i] * 0.02 * CENTRAL[j] : 0);
    const withTheory = (i: number, j: number) => experimental(i, j) + theory(i, j);
    const quality = fitQuality(inputs, predictions, undefined);
    expect(Object.keys(quality.datasetChi2PerPoint)).toEqual(['TOY_NC_F2', 'TOY_CC_F2']);
    expect(
      quality.datasetChi2PerPoint.TOY_NC_F2 / (chi2BySolve(range(0, 4), withTheory, residual) / 4),
    ).toBeCloseTo(1, 5);
    expect(
      quality.datasetChi2PerPoint.TOY_CC_F2 / (chi2BySolve(range(4, 7), withTheory, residual) / 3),
    ).toBeCloseTo(1, 5);
    const all = range(0, NDATA);
    expect(
      quality.averageChi2PerPoint / (chi2BySolve(all, withTheory, residual) / NDATA),
    ).toBeCloseTo(1, 5);
    expect(
      (quality.averageChi2PerPointWithoutTheory ?? Number.NaN) /
        (chi2BySolve(all, experimental, residual) / NDATA),
    ).toBeCloseTo(1, 5);
  });
});
