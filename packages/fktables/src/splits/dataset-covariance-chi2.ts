import {
  InvalidArgumentError,
  invertSymmetricPositiveDefinite,
  principalSubmatrix,
  type CovarianceChi2,
  type CovarianceChi2Block,
} from '@partonfit/core';
import {
  assertBlocksCover,
  blockedDataSize,
  type BlockCovariance,
  type DataBlock,
} from '../pseudodata/covariance-blocks.js';

/** The index of the block that holds all of `dataset`, or -1. */
function enclosingBlock(blocks: readonly DataBlock[], dataset: DataBlock): number {
  return blocks.findIndex(
    (block) =>
      block.offset <= dataset.offset && dataset.offset + dataset.size <= block.offset + block.size,
  );
}

/**
 * The χ² structure of each dataset with its own covariance, one matrix shared by all replicas:
 * one block per dataset, W_d = (C_dd)⁻¹ with C_dd the dataset's rows and columns of the
 * covariance, so that res_d · W_d · res_d is validphys's χ² of the dataset alone
 * (`abs_chi2_data` with the dataset's `covariance_matrix`). That is not the dataset's part of
 * the whole χ², res_d · (C⁻¹)_dd · res_d, wherever a covariance block spans several datasets (a
 * special systematic shared across datasets, a theory covariance).
 *
 * A dataset that is a block of its own keeps that block's inverse from `whole`: the same array,
 * neither inverted again nor stored twice (the fit-inputs cache stores an array once).
 *
 * Memory: Σ_d size_d² float32 values, less the datasets that share `whole`'s arrays.
 *
 * @param blocks - the covariance's contiguous independent blocks, covering the data axis
 * @param datasets - the datasets' stretches of the data axis with points, in order, covering it
 * @param whole - `sharedCovarianceChi2(blocks)`, whose inverses are reused
 * @throws InvalidArgumentError - for datasets that do not cover the data axis or lie across
 *   blocks, or a `whole` whose blocks are not `blocks`
 * @throws LinearAlgebraError - if a dataset's covariance is not positive definite
 */
export function datasetCovarianceChi2(
  blocks: readonly BlockCovariance[],
  datasets: readonly DataBlock[],
  whole: CovarianceChi2,
): CovarianceChi2 {
  const ndata = blockedDataSize(blocks);
  assertBlocksCover(blocks, ndata);
  assertBlocksCover(datasets, ndata);
  const mismatch = blocks.findIndex(
    (block, b) =>
      whole.blocks.at(b)?.offset !== block.offset || whole.blocks.at(b)?.size !== block.size,
  );
  if (mismatch >= 0 || whole.blocks.length !== blocks.length || whole.replicas !== 1) {
    throw new InvalidArgumentError({
      argument: 'whole',
      problem: `a shared χ² structure of ${whole.blocks.length} blocks is not that of the ${blocks.length} covariance blocks`,
    });
  }
  const chi2Blocks = datasets.map((dataset, d): CovarianceChi2Block => {
    const b = enclosingBlock(blocks, dataset);
    if (b < 0) {
      throw new InvalidArgumentError({
        argument: 'datasets',
        problem: `dataset ${d} at [${dataset.offset}, ${dataset.offset + dataset.size}) lies across covariance blocks`,
      });
    }
    const block = blocks[b];
    if (block.offset === dataset.offset && block.size === dataset.size) return whole.blocks[b];
    const points = Array.from(
      { length: dataset.size },
      (_, i) => dataset.offset - block.offset + i,
    );
    const inverse = invertSymmetricPositiveDefinite(principalSubmatrix(block.covariance, points));
    return {
      offset: dataset.offset,
      size: dataset.size,
      weights: Float32Array.from(inverse.data),
    };
  });
  return { kind: 'covariance', ndata, replicas: 1, blocks: chi2Blocks };
}
