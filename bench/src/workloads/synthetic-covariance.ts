import { createMatrix, type SeededRandom } from '@partonfit/core';
import type { BlockCovariance } from '@partonfit/fktables';

/** Relative uncorrelated (statistical) uncertainty of each point. */
export const STAT_FRACTION = 0.02;

/** Floor of the uncorrelated uncertainty, as a fraction of the block's mean |value|. */
export const STAT_FLOOR_FRACTION = 0.01;

/**
 * Fully correlated systematics of every experiment, as fractions of |value|: a normalisation
 * and three shape systematics whose size varies from point to point.
 */
export const SYSTEMATIC_FRACTIONS: readonly number[] = [0.02, 0.01, 0.01, 0.005];

/**
 * A block-diagonal experimental covariance: per block C = diag(σ²) + Σ_k s_k s_kᵀ with
 * σ_i = 2 % |D_i| + 1 % of the block's mean |D| and systematics s_{k,i} = f_k |D_i| u_{k,i},
 * u = 1 for the normalisation and uniform in [0.5, 1.5) for the others — positive definite.
 *
 * @param central - central values D, (data)
 * @param blockSizes - contiguous block sizes covering the data axis, in order
 * @returns one covariance per block, (size, size) each
 */
export function syntheticCovarianceBlocks(
  central: Float64Array,
  blockSizes: readonly number[],
  random: SeededRandom,
): BlockCovariance[] {
  let offset = 0;
  return blockSizes.map((size) => {
    const values = central.subarray(offset, offset + size);
    const scale = values.reduce((sum, value) => sum + Math.abs(value), 0) / size;
    const systematics = SYSTEMATIC_FRACTIONS.map((fraction, k) =>
      Float64Array.from(
        values,
        (value) => fraction * Math.abs(value) * (k === 0 ? 1 : 0.5 + random.uniform()),
      ),
    );
    const covariance = createMatrix(size, size);
    for (let i = 0; i < size; i++) {
      const sigma = STAT_FRACTION * Math.abs(values[i]) + STAT_FLOOR_FRACTION * scale;
      for (let j = 0; j <= i; j++) {
        let entry = i === j ? sigma * sigma : 0;
        for (const s of systematics) entry += s[i] * s[j];
        covariance.data[i * size + j] = entry;
        covariance.data[j * size + i] = entry;
      }
    }
    const block = { offset, size, covariance };
    offset += size;
    return block;
  });
}
