import {
  cholesky,
  createMatrix,
  ShapeError,
  solveLowerTriangular,
  type Matrix,
} from '@partonfit/core';

/**
 * χ² = (D − T)ᵀ C⁻¹ (D − T) in float64, through the Cholesky factor C = L·Lᵀ:
 * χ² = |L⁻¹ (D − T)|² (one forward substitution, no inverse).
 *
 * @param data - the central values D, shape `(data)`
 * @param predictions - the predictions T, shape `(data)`
 * @param covariance - C, `(data, data)`, symmetric positive definite
 * @throws ShapeError - when the lengths do not agree
 * @throws LinearAlgebraError - when the covariance is not symmetric positive definite
 */
export function chi2(data: Float64Array, predictions: Float64Array, covariance: Matrix): number {
  const n = data.length;
  if (predictions.length !== n || covariance.rows !== n || covariance.columns !== n) {
    throw new ShapeError({
      quantity: 'predictions and covariance',
      expected: [n, n, n],
      actual: [predictions.length, covariance.rows, covariance.columns],
      axes: '(data), (data, data)',
    });
  }
  const residuals = createMatrix(
    n,
    1,
    Float64Array.from(data, (value, i) => value - predictions[i]),
  );
  const whitened = solveLowerTriangular(cholesky(covariance), residuals).data;
  return whitened.reduce((sum, value) => sum + value * value, 0);
}
