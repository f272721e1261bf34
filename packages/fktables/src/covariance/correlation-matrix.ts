import { assertSquare, createMatrix, InvalidArgumentError, type Matrix } from '@partonfit/core';

/**
 * The correlation matrix of a covariance: ρ_ij = C_ij / √(C_ii C_jj), ones on the diagonal.
 *
 * @param covariance - (data, data), symmetric with a positive diagonal
 * @returns (data, data)
 * @throws ShapeError - if the matrix is not square
 * @throws InvalidArgumentError - if a diagonal element is not positive (a point without
 *   uncertainty has no correlation)
 */
export function correlationMatrix(covariance: Matrix): Matrix {
  assertSquare(covariance, 'covariance');
  const n = covariance.rows;
  const c = covariance.data;
  const inverseSigma = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const variance = c[i * n + i];
    if (!(variance > 0)) {
      throw new InvalidArgumentError({
        argument: 'covariance',
        problem: `the variance of point ${i} is ${variance}, not positive`,
      });
    }
    inverseSigma[i] = 1 / Math.sqrt(variance);
  }
  const correlation = createMatrix(n, n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      correlation.data[i * n + j] = i === j ? 1 : c[i * n + j] * inverseSigma[i] * inverseSigma[j];
    }
  }
  return correlation;
}
