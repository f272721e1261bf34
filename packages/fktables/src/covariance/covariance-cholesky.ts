import { cholesky, LinearAlgebraError, ShapeError, type Matrix } from '@partonfit/core';
import type { CommonData } from '../commondata/index.js';
import { datasetOffsets } from './dataset-blocks.js';

/**
 * The Cholesky factor L (C = L·Lᵀ) of the covariance of `datasets` (concatenated in order), with
 * a failure reported in terms of the data: which dataset and point the factorisation broke down
 * at, and which datasets the matrix covers.
 *
 * @param covariance - (data, data), e.g. from {@link covarianceMatrix} or one block of
 *   {@link covarianceBlocks} (then pass the block's datasets)
 * @returns (data, data), lower triangular
 * @throws ShapeError - if the covariance does not match the datasets' total number of points
 * @throws LinearAlgebraError - if the covariance is not positive definite (e.g. a dataset with
 *   no uncertainties, or linearly dependent points), naming the dataset and point
 */
export function covarianceCholesky(covariance: Matrix, datasets: readonly CommonData[]): Matrix {
  const offsets = datasetOffsets(datasets);
  const ndata = offsets[datasets.length];
  if (covariance.rows !== ndata || covariance.columns !== ndata) {
    throw new ShapeError({
      quantity: 'covariance',
      expected: [ndata, ndata],
      actual: [covariance.rows, covariance.columns],
      axes: '(data, data)',
    });
  }
  try {
    return cholesky(covariance);
  } catch (error) {
    if (!LinearAlgebraError.isInstance(error) || error.row === undefined) throw error;
    const row = error.row;
    const d = offsets.findLastIndex((offset, index) => index < datasets.length && offset <= row);
    const names = datasets.map((dataset) => dataset.name).join(', ');
    throw new LinearAlgebraError({
      operation: 'cholesky',
      problem: `the covariance of ${names} is not positive definite: it fails at point ${row - offsets[d]} of ${datasets[d].name} (row ${row})`,
      row,
      cause: error,
    });
  }
}
