import { cholesky, InvalidArgumentError, type Matrix } from '@partonfit/core';

/** A contiguous stretch of the data axis whose covariance is independent of the rest. */
export interface DataBlock {
  /** First data point of the block. */
  readonly offset: number;
  /** Number of data points in the block. */
  readonly size: number;
}

/** One independent block of a covariance matrix. */
export interface BlockCovariance extends DataBlock {
  /** The block's covariance, (size, size), symmetric. */
  readonly covariance: Matrix;
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

/**
 * The Cholesky factor of each independent block of a covariance: the square root used to draw
 * pseudodata, block by block, so the cost is Σ size³/3 rather than ndata³/3.
 *
 * @param blocks - contiguous blocks covering the data axis, with their covariances
 * @throws LinearAlgebraError - if a block is not positive definite
 */
export function factorCovarianceBlocks(
  blocks: readonly BlockCovariance[],
): CovarianceBlockFactor[] {
  assertBlocksCover(blocks, blockedDataSize(blocks));
  return blocks.map(({ offset, size, covariance }) => ({
    offset,
    size,
    cholesky: cholesky(covariance),
  }));
}

/** Number of data points the blocks cover (the end of the last block). */
export function blockedDataSize(blocks: readonly DataBlock[]): number {
  const last = blocks.at(-1);
  return last === undefined ? 0 : last.offset + last.size;
}
