import { cholesky, InvalidArgumentError, principalSubmatrix, type Matrix } from '@partonfit/core';

/** A contiguous stretch of the data axis whose covariance is independent of the rest. */
export interface DataBlock {
  /** First data point of the block. */
  readonly offset: number;
  /** Number of data points in the block. */
  readonly size: number;
}

/** A block of a covariance matrix with its Cholesky factor. */
export interface CovarianceBlockFactor extends DataBlock {
  /** L with C_block = L·Lᵀ, (size, size), lower triangular. */
  readonly cholesky: Matrix;
}

/**
 * Checks that `blocks` are in order, contiguous and cover the data axis `[0, ndata)` exactly.
 *
 * @throws InvalidArgumentError - naming the first block that breaks the rule
 */
export function assertBlocksCover(blocks: readonly DataBlock[], ndata: number): void {
  let next = 0;
  blocks.forEach((block, b) => {
    if (block.offset !== next || block.size < 1) {
      throw new InvalidArgumentError({
        argument: 'blocks',
        problem: `block ${b} covers [${block.offset}, ${block.offset + block.size}) but should start at point ${next} and be non-empty`,
      });
    }
    next += block.size;
  });
  if (next !== ndata) {
    throw new InvalidArgumentError({
      argument: 'blocks',
      problem: `blocks cover ${next} points, the data have ${ndata}`,
    });
  }
}

/** The indices `offset, offset + 1, …, offset + size − 1` of a block. */
export function blockIndices(block: DataBlock): Int32Array {
  const indices = new Int32Array(block.size);
  for (let i = 0; i < block.size; i++) indices[i] = block.offset + i;
  return indices;
}

/**
 * The Cholesky factor of each independent block of a covariance: the square root used to draw
 * pseudodata, block by block, so the cost is Σ size³/3 rather than ndata³/3.
 *
 * @param covariance - (data, data), block diagonal along `blocks`
 * @param blocks - contiguous blocks covering the data axis
 * @throws LinearAlgebraError - if a block is not positive definite
 */
export function factorCovarianceBlocks(
  covariance: Matrix,
  blocks: readonly DataBlock[],
): CovarianceBlockFactor[] {
  assertBlocksCover(blocks, covariance.rows);
  return blocks.map((block) => ({
    ...block,
    cholesky: cholesky(principalSubmatrix(covariance, blockIndices(block))),
  }));
}
