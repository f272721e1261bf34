import {
  InvalidArgumentError,
  LinearAlgebraError,
  matrixFromRows,
  principalSubmatrix,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { factorCovarianceBlocks } from './covariance-blocks.js';
import { pseudodataForReplicas, replicaPseudodata, type PseudodataSource } from './pseudodata.js';

/** Two independent blocks: a correlated pair and a single point. */
const COVARIANCE = matrixFromRows([
  [4, 1.2, 0],
  [1.2, 1, 0],
  [0, 0, 0.25],
]);
const BLOCKS = [
  { offset: 0, size: 2, covariance: principalSubmatrix(COVARIANCE, [0, 1]) },
  { offset: 2, size: 1, covariance: principalSubmatrix(COVARIANCE, [2]) },
];
const SOURCE: PseudodataSource = {
  central: Float64Array.from([10, -3, 0.5]),
  blocks: factorCovarianceBlocks(BLOCKS),
  mcseed: 1234,
};

describe('replicaPseudodata', () => {
  it('should scatter around the data with the covariance it was given', () => {
    const replicas = Array.from({ length: 20_000 }, (_, i) => i + 1);
    const all = pseudodataForReplicas(SOURCE, replicas);
    const mean = [0, 1, 2].map(
      (i) => replicas.reduce((sum, _, r) => sum + all[r * 3 + i], 0) / replicas.length,
    );
    const covariance = (i: number, j: number) =>
      replicas.reduce(
        (sum, _, r) => sum + (all[r * 3 + i] - mean[i]) * (all[r * 3 + j] - mean[j]),
        0,
      ) /
      (replicas.length - 1);
    // Standard errors for 20,000 draws: mean σ/141, variance ≈ σ²·0.01.
    expect(mean[0]).toBeCloseTo(10, 1);
    expect(mean[1]).toBeCloseTo(-3, 1);
    expect(mean[2]).toBeCloseTo(0.5, 1);
    expect(covariance(0, 0)).toBeGreaterThan(4 * 0.95);
    expect(covariance(0, 0)).toBeLessThan(4 * 1.05);
    expect(covariance(0, 1)).toBeGreaterThan(1.2 * 0.9);
    expect(covariance(0, 1)).toBeLessThan(1.2 * 1.1);
    expect(covariance(1, 1)).toBeGreaterThan(0.95);
    expect(covariance(1, 1)).toBeLessThan(1.05);
    expect(Math.abs(covariance(0, 2))).toBeLessThan(0.02);
    expect(covariance(2, 2)).toBeGreaterThan(0.25 * 0.95);
    expect(covariance(2, 2)).toBeLessThan(0.25 * 1.05);
  });

  it('should give replica r the same pseudodata whichever replicas run with it', () => {
    const alone = replicaPseudodata(SOURCE, 7);
    const together = pseudodataForReplicas(SOURCE, [3, 7, 100]);
    expect(Array.from(together.subarray(3, 6))).toEqual(Array.from(alone));
    expect(Array.from(replicaPseudodata(SOURCE, 7))).toEqual(Array.from(alone));
    expect(Array.from(replicaPseudodata({ ...SOURCE, mcseed: 1235 }, 7))).not.toEqual(
      Array.from(alone),
    );
    expect(Array.from(replicaPseudodata(SOURCE, 8))).not.toEqual(Array.from(alone));
  });

  it('should fit the central data at every replica without genrep', () => {
    const all = pseudodataForReplicas(SOURCE, [1, 2], false);
    expect(Array.from(all)).toEqual([10, -3, 0.5, 10, -3, 0.5]);
  });

  it('should draw again until the points that must be positive are', () => {
    const source = {
      ...SOURCE,
      positive: Uint8Array.from([0, 0, 1]),
      central: Float64Array.from([10, -3, 0.1]),
    };
    const replicas = Array.from({ length: 2000 }, (_, i) => i + 1);
    const all = pseudodataForReplicas(source, replicas);
    const third = replicas.map((_, r) => all[r * 3 + 2]);
    expect(Math.min(...third)).toBeGreaterThanOrEqual(0);
    // Without the condition about 42% of draws (P(z < −0.2)) would be negative.
    const unconditioned = pseudodataForReplicas(
      { ...source, positive: undefined as never },
      replicas,
    );
    expect(replicas.filter((_, r) => unconditioned[r * 3 + 2] < 0).length).toBeGreaterThan(700);
  });

  it('should give up with a clear error when positivity cannot be met', () => {
    const source = {
      ...SOURCE,
      central: Float64Array.from([10, -3, -50]),
      positive: Uint8Array.from([0, 0, 1]),
      maxDraws: 100,
    };
    expect(() => replicaPseudodata(source, 1)).toThrow(InvalidArgumentError);
    expect(() => replicaPseudodata(source, 1)).toThrow(/replica 1: no draw in 100/);
  });

  it('should reject blocks that do not cover the data and blocks that are not positive definite', () => {
    expect(() => replicaPseudodata({ ...SOURCE, blocks: SOURCE.blocks.slice(0, 1) }, 1)).toThrow(
      'blocks cover 2 points, the data have 3',
    );
    expect(() => factorCovarianceBlocks([BLOCKS[0], { ...BLOCKS[1], offset: 3 }])).toThrow(
      'block 1 covers [3, 4) but should start at point 2',
    );
    const singular = matrixFromRows([
      [1, 1],
      [1, 1],
    ]);
    expect(() => factorCovarianceBlocks([{ offset: 0, size: 2, covariance: singular }])).toThrow(
      LinearAlgebraError,
    );
  });
});
