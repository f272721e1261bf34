import { InvalidArgumentError, type CovarianceChi2 } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { chi2BySolve } from '@partonfit/testing';
import { chi2FromStructure } from './chi2-reference.js';
import { datasetCovarianceChi2 } from './dataset-covariance-chi2.js';
import { sharedCovarianceChi2 } from './masked-covariance.js';
import { assembleCovariance, randomBlockCovariances, randomResiduals } from './splits.fixture.js';

/** rᵀ A⁻¹ r over the points [first, end) of the (N, N) matrix A, by a plain solve. */
function ownBlockChi2(
  full: Float64Array,
  ndata: number,
  r: Float64Array,
  first: number,
  end: number,
) {
  const points = Array.from({ length: end - first }, (_, i) => first + i);
  return chi2BySolve(points, (i, j) => full[i * ndata + j], r);
}

/** The χ² of one block of a structure alone. */
function blockChi2(structure: CovarianceChi2, b: number, residuals: Float64Array): number {
  return chi2FromStructure({ ...structure, blocks: [structure.blocks[b]] }, residuals)[0];
}

// Two independent blocks: [0, 7) holds datasets [0, 3) and [3, 7), correlated with each other;
// [7, 12) is one dataset alone.
const BLOCKS = randomBlockCovariances([7, 5], 11);
const DATASETS = [
  { offset: 0, size: 3 },
  { offset: 3, size: 4 },
  { offset: 7, size: 5 },
];
const NDATA = 12;

describe('datasetCovarianceChi2', () => {
  const whole = sharedCovarianceChi2(BLOCKS);
  const byDataset = datasetCovarianceChi2(BLOCKS, DATASETS, whole);
  const full = assembleCovariance(BLOCKS).data;
  const residuals = randomResiduals(1, NDATA, 5);

  it('should give each dataset the χ² with its own covariance block, rᵀ (C_dd)⁻¹ r', () => {
    expect(byDataset.blocks.map(({ offset, size }) => [offset, size])).toEqual([
      [0, 3],
      [3, 4],
      [7, 5],
    ]);
    DATASETS.forEach(({ offset, size }, d) => {
      const expected = ownBlockChi2(full, NDATA, residuals, offset, offset + size);
      expect(blockChi2(byDataset, d, residuals) / expected).toBeCloseTo(1, 5);
    });
  });

  it('should differ from the dataset’s part of the whole χ² where a block spans datasets', () => {
    const own = blockChi2(byDataset, 0, residuals);
    const zeroedElsewhere = residuals.map((value, i) => (i < 3 ? value : 0));
    const partOfWhole = chi2FromStructure(whole, zeroedElsewhere)[0];
    expect(Math.abs(partOfWhole / own - 1)).toBeGreaterThan(0.01);
  });

  it('should reuse the inverse of a dataset that is a block of its own', () => {
    expect(byDataset.blocks[2].weights).toBe(whole.blocks[1].weights);
    expect(byDataset.replicas).toBe(1);
  });

  it('should refuse datasets across blocks and a structure of other blocks', () => {
    const across = [
      { offset: 0, size: 8 },
      { offset: 8, size: 4 },
    ];
    expect(() => datasetCovarianceChi2(BLOCKS, across, whole)).toThrow(
      'datasets: dataset 0 at [0, 8) lies across covariance blocks',
    );
    const other = sharedCovarianceChi2(randomBlockCovariances([12], 3));
    expect(() => datasetCovarianceChi2(BLOCKS, DATASETS, other)).toThrow(InvalidArgumentError);
  });
});
