import {
  InvalidArgumentError,
  inverseFromCholesky,
  invertSymmetricPositiveDefinite,
  principalSubmatrix,
  ShapeError,
  type CovarianceChi2,
  type CovarianceChi2Block,
} from '@partonfit/core';
import {
  assertBlocksCover,
  blockedDataSize,
  type BlockCovariance,
  type CovarianceBlockFactor,
} from '../pseudodata/covariance-blocks.js';

/**
 * The inverse of the covariance restricted to the points `used` marks inside `block`, embedded
 * in a (size, size) float32 matrix with zeros at the other points.
 */
function embeddedInverse(block: BlockCovariance, used: readonly number[]): Float32Array {
  const embedded = new Float32Array(block.size * block.size);
  if (used.length === 0) return embedded;
  const inverse = invertSymmetricPositiveDefinite(principalSubmatrix(block.covariance, used));
  used.forEach((i, a) => {
    used.forEach((j, b) => {
      embedded[i * block.size + j] = inverse.data[a * used.length + b];
    });
  });
  return embedded;
}

/**
 * The χ² structure of a data-point split: for every replica and block, the inverse of the
 * covariance restricted to the points the replica's mask selects, embedded with zeros at the
 * others, so that χ²_r = Σ_b res_{r,b} · W_{r,b} · res_{r,b} needs no gather. Replicas whose
 * masks agree on a block share the inversion (not the storage).
 *
 * Memory: replicas · Σ_b size_b² float32 values (4 bytes each); for a training and a validation
 * structure together, 8 · replicas · Σ_b size_b² bytes.
 *
 * @param blocks - the fitting covariance's contiguous independent blocks, covering the data axis
 * @param masks - (replicas, data), 1 = the point counts in this χ²
 * @throws LinearAlgebraError - if a restricted covariance is not positive definite
 */
export function maskedCovarianceChi2(
  blocks: readonly BlockCovariance[],
  masks: Uint8Array,
): CovarianceChi2 {
  const ndata = blockedDataSize(blocks);
  assertBlocksCover(blocks, ndata);
  if (masks.length % ndata !== 0) {
    throw new ShapeError({ quantity: 'masks', expected: [null, ndata], actual: [masks.length] });
  }
  const replicas = masks.length / ndata;
  const chi2Blocks: CovarianceChi2Block[] = blocks.map((block) => {
    const weights = new Float32Array(replicas * block.size * block.size);
    const inverses = new Map<string, Float32Array>();
    for (let r = 0; r < replicas; r++) {
      const used: number[] = [];
      for (let i = 0; i < block.size; i++)
        if (masks[r * ndata + block.offset + i] === 1) used.push(i);
      const pattern = used.join(',');
      let inverse = inverses.get(pattern);
      if (inverse === undefined) {
        inverse = embeddedInverse(block, used);
        inverses.set(pattern, inverse);
      }
      weights.set(inverse, r * block.size * block.size);
    }
    return { offset: block.offset, size: block.size, weights };
  });
  return { kind: 'covariance', ndata, replicas, blocks: chi2Blocks };
}

/**
 * The χ² structure of the full covariance, one matrix shared by all replicas (the experimental
 * χ² against central data, or a fit without a split): W_b = C_b⁻¹ per block.
 *
 * Memory: Σ_b size_b² float32 values.
 *
 * @param factors - the blocks' Cholesky factors, when at hand (`factorCovarianceBlocks` of the
 *   same blocks, as for the pseudodata): the inverses are taken from them, bit for bit as from
 *   the blocks, without factorising the blocks again
 * @throws InvalidArgumentError - for factors whose blocks are not the covariance's
 * @throws LinearAlgebraError - if a block is not positive definite
 */
export function sharedCovarianceChi2(
  blocks: readonly BlockCovariance[],
  factors?: readonly CovarianceBlockFactor[],
): CovarianceChi2 {
  const ndata = blockedDataSize(blocks);
  if (factors === undefined) return maskedCovarianceChi2(blocks, new Uint8Array(ndata).fill(1));
  assertBlocksCover(blocks, ndata);
  const mismatch = blocks.findIndex(
    (block, b) => factors.at(b)?.offset !== block.offset || factors.at(b)?.size !== block.size,
  );
  if (mismatch >= 0 || factors.length !== blocks.length) {
    throw new InvalidArgumentError({
      argument: 'factors',
      problem: `${factors.length} Cholesky factors do not match the ${blocks.length} covariance blocks${mismatch >= 0 ? ` (block ${mismatch} first)` : ''}`,
    });
  }
  return {
    kind: 'covariance',
    ndata,
    replicas: 1,
    blocks: blocks.map(({ offset, size }, b) => ({
      offset,
      size,
      weights: Float32Array.from(inverseFromCholesky(factors[b].cholesky).data),
    })),
  };
}

/** The complement of 0/1 masks: validation masks from training masks. */
export function complementMasks(masks: Uint8Array): Uint8Array {
  return masks.map((used) => 1 - used);
}
