import {
  cholesky,
  inverseFromCholesky,
  invertSymmetricPositiveDefinite,
  symmetricEigen,
  type Matrix,
} from '@partonfit/core';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../bundle/bundle.js';
import { factorCovarianceBlocks, type BlockCovariance } from '../pseudodata/covariance-blocks.js';
import { chi2FromStructure } from './chi2-reference.js';
import { eigenbasisSplit } from './eigenbasis-split.js';
import { sharedCovarianceChi2 } from './masked-covariance.js';
import { assembleCovariance, randomBlockCovariances, randomResiduals } from './splits.fixture.js';

/** S⁻¹ C S⁻¹ with S = diag(√C_ii). */
function correlation(covariance: Matrix): Matrix {
  const n = covariance.rows;
  const data = Float64Array.from(covariance.data);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      data[i * n + j] /= Math.sqrt(covariance.data[i * n + i] * covariance.data[j * n + j]);
    }
  }
  return { ...covariance, data };
}

describe('sharedCovarianceChi2 from the Cholesky factors', () => {
  const blocks = randomBlockCovariances([9, 4, 1], 31);

  it('should give the same inverses, bit for bit, as factorising the blocks again', () => {
    const reused = sharedCovarianceChi2(blocks, factorCovarianceBlocks(blocks));
    const again = sharedCovarianceChi2(blocks);
    expect(reused.blocks.map((block) => Array.from(block.weights))).toEqual(
      again.blocks.map((block) => Array.from(block.weights)),
    );
    const matrix = blocks[0].covariance;
    expect(Array.from(inverseFromCholesky(cholesky(matrix)).data)).toEqual(
      Array.from(invertSymmetricPositiveDefinite(matrix).data),
    );
  });

  it('should refuse factors of other blocks', () => {
    const other = factorCovarianceBlocks(randomBlockCovariances([9, 5], 31));
    expect(() => sharedCovarianceChi2(blocks, other)).toThrow(
      /2 Cholesky factors do not match the 3 covariance blocks \(block 1 first\)/,
    );
  });
});

describe.skipIf(!hasSharedData('bundles', 'the block-wise eigensystem on real covariances'))(
  'block by block against the full matrix, on HERA CC e⁻p and SLAC proton covariances',
  () => {
    let blocks: BlockCovariance[];

    beforeAll(async () => {
      const bundles = await Promise.all(
        ['HERACOMBCCEM', 'SLACP'].map((name) => loadBundle(`${SHARED_DATA}bundles/${name}.npz`)),
      );
      blocks = [
        { offset: 0, size: 42, covariance: bundles[0].covariance },
        { offset: 42, size: 33, covariance: bundles[1].covariance },
      ];
    });

    it('should find the full correlation matrix’s eigenvalues in the blocks’', () => {
      const full = symmetricEigen(correlation(assembleCovariance(blocks))).values;
      const perBlock = Float64Array.from(
        blocks.flatMap((block) => Array.from(symmetricEigen(correlation(block.covariance)).values)),
      ).sort();
      expect(full.length).toBe(75);
      full.forEach((value, k) => {
        expect(perBlock[k] / value).toBeCloseTo(1, 10);
      });
      expect(full[0]).toBeGreaterThan(0);
    });

    it('should split the full χ² between block-wise training and validation eigenmodes', () => {
      const residuals = randomResiduals(2, 75, 7).map((value, i) => {
        const point = i % 75;
        const block = point < 42 ? blocks[0] : blocks[1];
        const local = point - block.offset;
        return value * Math.sqrt(block.covariance.data[local * block.size + local]);
      });
      const split = eigenbasisSplit(blocks, { trvlseed: 4, replicas: [1, 2], diagonalFrac: 0.75 });
      const training = chi2FromStructure(split.training, residuals);
      const validation = chi2FromStructure(split.validation, residuals);
      const inverse = invertSymmetricPositiveDefinite(assembleCovariance(blocks)).data;
      for (let r = 0; r < 2; r++) {
        const res = residuals.subarray(r * 75, (r + 1) * 75);
        let full = 0;
        for (let i = 0; i < 75; i++) {
          for (let j = 0; j < 75; j++) full += res[i] * inverse[i * 75 + j] * res[j];
        }
        expect((training[r] + validation[r]) / full).toBeCloseTo(1, 5);
      }
      expect(Array.from(split.trainingModes)).toEqual([56, 56]);
    });
  },
);
