import { createMatrix, ShapeError } from '@partonfit/core';
import { blockedDataSize, type BlockCovariance } from '../pseudodata/covariance-blocks.js';

/**
 * C + S as one block: the experimental covariance's independent blocks with the theory
 * covariance added, which correlates points across datasets and experiments — validphys then
 * groups all data in one (`data_grouping: ALL`), so the fit's χ² and pseudodata take the whole
 * matrix.
 *
 * @param blocks - contiguous blocks covering the data axis
 * @param theory - S, (data, data) row-major
 * @returns one block covering the data axis
 * @throws ShapeError - when S does not have the blocks' data size
 */
export function addTheoryCovariance(
  blocks: readonly BlockCovariance[],
  theory: Float64Array,
): BlockCovariance[] {
  const n = blockedDataSize(blocks);
  if (theory.length !== n * n) {
    throw new ShapeError({
      quantity: 'theory covariance',
      expected: [n, n],
      actual: [theory.length],
      axes: '(data, data)',
    });
  }
  const covariance = createMatrix(n, n, Float64Array.from(theory));
  for (const { offset, size, covariance: block } of blocks) {
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        covariance.data[(offset + i) * n + offset + j] += block.data[i * size + j];
      }
    }
  }
  return [{ offset: 0, size: n, covariance }];
}
