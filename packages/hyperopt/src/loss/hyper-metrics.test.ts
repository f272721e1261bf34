import { cholesky, createMatrix } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { chi2WithCholesky, pointsCovariance } from './fold-covariance.js';
import { hyperMetrics } from './hyper-metrics.js';

/** Three points, the first two correlated, in one block of a larger data axis. */
const COVARIANCE = [0.04, 0.01, 0, 0.01, 0.09, 0, 0, 0, 0.16];
const CENTRAL = [1, 2, 3];
/** Three replicas' predictions at the points. */
const PREDICTIONS = [
  [1.1, 1.9, 3.3],
  [0.95, 2.2, 2.9],
  [1.05, 2.05, 3.1],
];

describe("the ensemble's metrics (n3fit compute_hyperopt_metrics)", () => {
  it('agree with numpy on chi2, phi, logp and chi2exp', () => {
    // numbers from numpy: np.cov(predictions.T) added to the covariance, np.linalg.cholesky
    const data = {
      points: Int32Array.from([0, 1, 2]),
      central: Float64Array.from(CENTRAL),
      covariance: createMatrix(3, 3, Float64Array.from(COVARIANCE)),
      cholesky: cholesky(createMatrix(3, 3, Float64Array.from(COVARIANCE))),
    };
    const metrics = hyperMetrics(
      data,
      PREDICTIONS.map((row) => Float64Array.from(row)),
    );
    expect(metrics.chi2).toBeCloseTo(0.034454298291040665, 13);
    expect(metrics.phi).toBeCloseTo(0.4003966287538654, 13);
    expect(metrics.logp).toBeCloseTo(-0.8182315500751094, 13);
    expect(metrics.chi2exp).toBeCloseTo(0.036706349206348944, 13);
    const diverged = hyperMetrics(data, [Float64Array.from([1, Number.NaN, 3])]);
    expect(Object.values(diverged).every(Number.isNaN)).toBe(true);
    // replicas 10¹⁰ apart swamp the data's covariance: C + C_pdf is numerically singular, so
    // the metrics that need it are NaN while φ and χ²_exp are measured
    const far = hyperMetrics(data, [
      Float64Array.from([1e10, 2e10, 3e10]),
      Float64Array.from([-1e10, -2e10, -3e10]),
    ]);
    expect(far.chi2).toBeNaN();
    expect(far.logp).toBeNaN();
    // their mean is 0: χ²_exp of (−1, −2, −3) is (0.21/0.0035 + 9/0.16)/3
    expect(far.chi2exp).toBeCloseTo(38.75, 9);
    expect(Number.isFinite(far.phi)).toBe(true);
  });

  it('take the points of a fold from the covariance blocks, uncorrelated across blocks', () => {
    const blocks = [
      { offset: 0, size: 2, covariance: Float64Array.from([1, 0.5, 0.5, 2]) },
      { offset: 2, size: 3, covariance: Float64Array.from(COVARIANCE) },
    ];
    const data = pointsCovariance(
      Uint8Array.from([0, 1, 1, 0, 1]),
      Float64Array.from([9, 8, 1, 2, 3]),
      blocks,
    );
    expect(Array.from(data.points)).toEqual([1, 2, 4]);
    expect(Array.from(data.central)).toEqual([8, 1, 3]);
    expect(Array.from(data.covariance.data)).toEqual([2, 0, 0, 0, 0.04, 0, 0, 0, 0.16]);
    // χ² of a residual (1, 0.2, 0.4): 1/2 + 1 + 1
    expect(chi2WithCholesky(data.cholesky, Float64Array.from([1, 0.2, 0.4]))).toBeCloseTo(2.5, 12);
  });
});
