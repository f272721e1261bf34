import type { Matrix } from '@partonfit/core';
import ndarray, { type NdArray } from 'ndarray';

/**
 * An ndarray view of a covariance (or any core `Matrix`), shape `(rows, columns)`, over the
 * matrix's row-major data (not copied).
 */
export function covarianceAsNdarray(covariance: Matrix): NdArray<Float64Array> {
  return ndarray(covariance.data, [covariance.rows, covariance.columns]);
}
