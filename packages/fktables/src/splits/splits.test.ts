import { invertSymmetricPositiveDefinite, principalSubmatrix } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { chi2FromStructure, chi2StructureBytes } from './chi2-reference.js';
import { eigenbasisSplit } from './eigenbasis-split.js';
import {
  complementMasks,
  maskedCovarianceChi2,
  sharedCovarianceChi2,
} from './masked-covariance.js';
import { trainingPointMasks, type DatasetSpan } from './point-split.js';
import { assembleCovariance, randomBlockCovariances, randomResiduals } from './splits.fixture.js';

const DATASETS: DatasetSpan[] = [
  { name: 'HERACOMBCCEM', offset: 0, ndata: 42, frac: 0.75 },
  { name: 'SLACP', offset: 42, ndata: 33, frac: 0.5 },
  { name: 'ATLASTTBARTOT13TEV', offset: 75, ndata: 1, frac: 0.75 },
];
const NDATA = 76;

/** Float64 χ² of the points `used` of residual row `r`: res_Uᵀ (C_UU)⁻¹ res_U. */
function directChi2(
  covariance: Parameters<typeof principalSubmatrix>[0],
  residual: Float64Array,
  used: number[],
): number {
  if (used.length === 0) return 0;
  const inverse = invertSymmetricPositiveDefinite(principalSubmatrix(covariance, used));
  let chi2 = 0;
  used.forEach((i, a) => {
    used.forEach((j, b) => {
      chi2 += residual[i] * inverse.data[a * used.length + b] * residual[j];
    });
  });
  return chi2;
}

function rowsOf(masks: Uint8Array, ndata: number): number[][] {
  return Array.from({ length: masks.length / ndata }, (_, r) =>
    Array.from(masks.subarray(r * ndata, (r + 1) * ndata)),
  );
}

describe('trainingPointMasks', () => {
  it('should send floor(ndata · frac) random points of each dataset to training', () => {
    const masks = trainingPointMasks(DATASETS, { trvlseed: 3, replicas: [1, 2, 3, 4] });
    const rows = rowsOf(masks, NDATA);
    for (const row of rows) {
      expect(row.slice(0, 42).filter((m) => m === 1)).toHaveLength(31);
      expect(row.slice(42, 75).filter((m) => m === 1)).toHaveLength(16);
    }
    expect(new Set(rows.map((row) => row.join(''))).size).toBe(4);
  });

  it('should not depend on the other replicas or on the other datasets', () => {
    const together = rowsOf(
      trainingPointMasks(DATASETS, { trvlseed: 3, replicas: [1, 5, 9] }),
      NDATA,
    );
    const alone = rowsOf(trainingPointMasks(DATASETS, { trvlseed: 3, replicas: [5] }), NDATA);
    expect(alone[0]).toEqual(together[1]);
    const slacFirst = trainingPointMasks([{ ...DATASETS[1], offset: 0 }], {
      trvlseed: 3,
      replicas: [5],
    });
    expect(Array.from(slacFirst)).toEqual(together[1].slice(42, 75));
    const otherSeed = rowsOf(trainingPointMasks(DATASETS, { trvlseed: 4, replicas: [5] }), NDATA);
    expect(otherSeed[0]).not.toEqual(alone[0]);
  });

  it('should put a one-point dataset in training with probability frac', () => {
    const replicas = Array.from({ length: 2000 }, (_, i) => i + 1);
    const masks = trainingPointMasks(DATASETS, { trvlseed: 3, replicas });
    const trained = replicas.filter((_, r) => masks[r * NDATA + 75] === 1).length;
    // Binomial(2000, 0.75): mean 1500, σ ≈ 19.
    expect(trained).toBeGreaterThan(1420);
    expect(trained).toBeLessThan(1580);
  });

  it('should give every replica replica 1’s split with same_trvl_per_replica', () => {
    const rows = rowsOf(
      trainingPointMasks(DATASETS, { trvlseed: 3, replicas: [1, 2, 3], sameForAllReplicas: true }),
      NDATA,
    );
    expect(rows[1]).toEqual(rows[0]);
    expect(rows[2]).toEqual(rows[0]);
  });

  it('should reject a fraction outside [0, 1]', () => {
    expect(() =>
      trainingPointMasks([{ ...DATASETS[0], frac: 1.5 }], { trvlseed: 3, replicas: [1] }),
    ).toThrow('frac of HERACOMBCCEM: expected a fraction in [0, 1], got 1.5');
  });
});

describe('maskedCovarianceChi2', () => {
  const sizes = [42, 33, 1];
  const blocks = randomBlockCovariances(sizes, 11);
  const covariance = assembleCovariance(blocks);
  const replicas = [1, 2, 3, 4, 5];
  const masks = trainingPointMasks(DATASETS, { trvlseed: 8, replicas });
  const residuals = randomResiduals(replicas.length, NDATA, 12);

  it('should give each replica the χ² of its own training and validation points', () => {
    const training = chi2FromStructure(maskedCovarianceChi2(blocks, masks), residuals);
    const validation = chi2FromStructure(
      maskedCovarianceChi2(blocks, complementMasks(masks)),
      residuals,
    );
    replicas.forEach((_, r) => {
      const residual = residuals.subarray(r * NDATA, (r + 1) * NDATA);
      const trainingPoints: number[] = [];
      const validationPoints: number[] = [];
      for (let i = 0; i < NDATA; i++)
        (masks[r * NDATA + i] ? trainingPoints : validationPoints).push(i);
      // Blocks are independent, so the χ² of a subset is the χ² of its restriction.
      expect(training[r]).toBeGreaterThan(10);
      expect(validation[r] / directChi2(covariance, residual, validationPoints)).toBeCloseTo(1, 5);
      expect(training[r] / directChi2(covariance, residual, trainingPoints)).toBeCloseTo(1, 5);
    });
  });

  it('should share one full inverse when every point counts', () => {
    const shared = sharedCovarianceChi2(blocks);
    expect(shared.replicas).toBe(1);
    const chi2 = chi2FromStructure(shared, residuals);
    const all = Array.from({ length: NDATA }, (_, i) => i);
    replicas.forEach((_, r) => {
      const residual = residuals.subarray(r * NDATA, (r + 1) * NDATA);
      expect(chi2[r] / directChi2(covariance, residual, all)).toBeCloseTo(1, 5);
    });
    expect(chi2StructureBytes(shared)).toBe(4 * (42 * 42 + 33 * 33 + 1));
  });

  it('should reject masks and residuals of the wrong length', () => {
    expect(() => maskedCovarianceChi2(blocks, new Uint8Array(NDATA + 1))).toThrow(
      'masks: expected shape [*, 76], got [77]',
    );
    expect(() => chi2FromStructure(sharedCovarianceChi2(blocks), new Float64Array(75))).toThrow(
      'residuals: expected shape [*, 76], got [75]',
    );
  });
});

describe('eigenbasisSplit', () => {
  const sizes = [30, 12, 1];
  const ndata = 43;
  const blocks = randomBlockCovariances(sizes, 21);
  const covariance = assembleCovariance(blocks);
  const residuals = randomResiduals(4, ndata, 22);
  const split = eigenbasisSplit(blocks, {
    trvlseed: 5,
    replicas: [1, 2, 3, 4],
    diagonalFrac: 0.75,
  });

  it('should partition the full χ² between training and validation eigenmodes', () => {
    const training = chi2FromStructure(split.training, residuals);
    const validation = chi2FromStructure(split.validation, residuals);
    const all = Array.from({ length: ndata }, (_, i) => i);
    for (let r = 0; r < 4; r++) {
      const full = directChi2(covariance, residuals.subarray(r * ndata, (r + 1) * ndata), all);
      expect((training[r] + validation[r]) / full).toBeCloseTo(1, 5);
      expect(training[r]).toBeGreaterThan(0);
      expect(validation[r]).toBeGreaterThan(0);
    }
    expect(Array.from(split.trainingModes)).toEqual([32, 32, 32, 32]);
    expect(Array.from(split.validationModes)).toEqual([11, 11, 11, 11]);
  });

  it('should weight each kept mode by 1/λ in exactly one of the two structures', () => {
    split.training.blocks.forEach((block, b) => {
      const other = split.validation.blocks[b];
      for (let i = 0; i < block.weights.length; i++) {
        expect(block.weights[i] === 0).toBe(other.weights[i] !== 0);
      }
    });
  });

  it('should draw replica r’s modes independently of the other replicas', () => {
    const alone = eigenbasisSplit(blocks, {
      trvlseed: 5,
      replicas: [3],
      diagonalFrac: 0.75,
    });
    const modes = split.training.blocks[0].modes;
    expect(Array.from(alone.training.blocks[0].weights)).toEqual(
      Array.from(split.training.blocks[0].weights.subarray(2 * modes, 3 * modes)),
    );
  });

  it('should drop eigenmodes at or below the threshold', () => {
    const dropped = eigenbasisSplit(blocks, {
      trvlseed: 5,
      replicas: [1],
      diagonalFrac: 0.75,
      threshold: 0.05,
    });
    const kept = dropped.training.blocks.reduce((sum, block) => sum + block.modes, 0);
    expect(kept).toBeLessThan(ndata);
    expect(dropped.trainingModes[0] + dropped.validationModes[0]).toBe(kept);
  });
});
