import {
  LinearAlgebraError,
  maxAbsDifference,
  multiplyMatrices,
  ShapeError,
  transposeMatrix,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { syntheticCommonData } from '../commondata/commondata.fixture.js';
import { covarianceCholesky } from './covariance-cholesky.js';
import { covarianceMatrix } from './covariance-matrix.js';

const measured = syntheticCommonData({
  name: 'MEASURED',
  central: [1, 2],
  uncertainties: [
    { name: 'stat', treatment: 'ADD', type: 'UNCORR', values: [0.1, 0.2] },
    { treatment: 'ADD', type: 'CORR', values: [0.05, 0.05] },
  ],
});
/** Two points fully correlated, with no uncorrelated error: a singular covariance. */
const degenerate = syntheticCommonData({
  name: 'DEGENERATE',
  central: [1, 1],
  uncertainties: [{ treatment: 'ADD', type: 'CORR', values: [0.1, 0.1] }],
});

describe('covarianceCholesky', () => {
  it('should factor a positive-definite covariance', () => {
    const covariance = covarianceMatrix([measured]);
    const lower = covarianceCholesky(covariance, [measured]);
    expect(
      maxAbsDifference(multiplyMatrices(lower, transposeMatrix(lower)), covariance),
    ).toBeLessThan(1e-15);
  });

  it('should name the dataset and point where the factorisation fails', () => {
    const datasets = [measured, degenerate];
    const covariance = covarianceMatrix(datasets);
    expect(() => covarianceCholesky(covariance, datasets)).toThrow(LinearAlgebraError);
    expect(() => covarianceCholesky(covariance, datasets)).toThrow(
      /the covariance of MEASURED, DEGENERATE is not positive definite: it fails at point 1 of DEGENERATE \(row 3\)$/,
    );
  });

  it('should refuse a covariance that does not match the datasets', () => {
    expect(() => covarianceCholesky(covarianceMatrix([measured]), [measured, degenerate])).toThrow(
      ShapeError,
    );
  });
});
