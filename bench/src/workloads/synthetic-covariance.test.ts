import { cholesky, SeededRandom } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import {
  STAT_FLOOR_FRACTION,
  STAT_FRACTION,
  SYSTEMATIC_FRACTIONS,
  syntheticCovarianceBlocks,
} from './synthetic-covariance.js';

describe('syntheticCovarianceBlocks', () => {
  const central = Float64Array.from([2, 4, 1, -3, 5]);
  const blocks = syntheticCovarianceBlocks(central, [3, 2], new SeededRandom(5));

  it('should cover the data with contiguous symmetric positive-definite blocks', () => {
    expect(blocks.map((block) => [block.offset, block.size])).toEqual([
      [0, 3],
      [3, 2],
    ]);
    for (const { covariance, size } of blocks) {
      for (let i = 0; i < size; i++) {
        for (let j = 0; j < size; j++) {
          expect(covariance.data[i * size + j]).toBe(covariance.data[j * size + i]);
        }
      }
      expect(() => cholesky(covariance)).not.toThrow();
    }
  });

  it('should give each variance the statistical part plus systematics within their ranges', () => {
    // block 2: |D| = 3, 5, mean 4
    const sigma = STAT_FRACTION * 3 + STAT_FLOOR_FRACTION * 4;
    const systematic = (u: number) =>
      SYSTEMATIC_FRACTIONS.reduce((sum, f, k) => sum + (f * 3 * (k === 0 ? 1 : u)) ** 2, 0);
    const variance = blocks[1].covariance.data[0];
    expect(variance).toBeGreaterThanOrEqual(sigma ** 2 + systematic(0.5));
    expect(variance).toBeLessThan(sigma ** 2 + systematic(1.5));
    // the normalisation alone correlates the two points: C_01 ≥ (0.02·3)(0.02·5)
    expect(blocks[1].covariance.data[1]).toBeGreaterThanOrEqual(SYSTEMATIC_FRACTIONS[0] ** 2 * 15);
  });
});
