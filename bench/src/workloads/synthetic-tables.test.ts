import { SeededRandom } from '@partonfit/core';
import { interpolationXGrid } from '@partonfit/fktables';
import { describe, expect, it } from 'vitest';
import { applyKinematicLimits, kinematicLimits, randomHadronicTable } from './synthetic-tables.js';
import { NNPDF40_SPARSE_WORKLOAD } from './workloads.js';

describe('kinematic limits of synthetic hadronic tables', () => {
  it('should draw ascending limits within the range', () => {
    const limits = kinematicLimits(40, { minTau: 1e-4, maxTau: 1e-2 }, new SeededRandom(7));
    expect(limits).toHaveLength(40);
    for (let n = 0; n < 40; n++) {
      expect(limits[n]).toBeGreaterThanOrEqual(1e-4);
      expect(limits[n]).toBeLessThan(1e-2);
      if (n > 0) expect(limits[n]).toBeGreaterThanOrEqual(limits[n - 1]);
    }
    // log-uniform: about half the points below the geometric middle, 10⁻³
    const below = limits.filter((tau) => tau < 1e-3).length;
    expect(below).toBeGreaterThan(10);
    expect(below).toBeLessThan(30);
  });

  it('should zero exactly the values below each point’s limit, channel by channel', () => {
    const xGrid = Float64Array.from([0.01, 0.1, 0.5]);
    const channels = [
      [1, 2],
      [2, 2],
    ] as const;
    const table = randomHadronicTable('T', 2, channels, xGrid, new SeededRandom(3));
    const before = Float64Array.from(table.values);
    // point 0: x1 · x2 ≥ 0.02 keeps (0.1, 0.5), (0.5, 0.1), (0.5, 0.5); point 1: nothing zeroed
    const fraction = applyKinematicLimits(table, Float64Array.from([0.02, 1e-6]));
    expect(fraction).toBeCloseTo((2 * 6) / (2 * 2 * 9), 12);
    for (let c = 0; c < 2; c++) {
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) {
          const kept = xGrid[a] * xGrid[b] >= 0.02;
          const first = (0 * 2 + c) * 9 + a * 3 + b;
          const second = (1 * 2 + c) * 9 + a * 3 + b;
          expect(table.values[first]).toBe(kept ? before[first] : 0);
          expect(table.values[second]).toBe(before[second]);
        }
      }
    }
  });

  it('should zero 6–42 % of a point’s plane on the nnpdf40-sparse grid, as documented', () => {
    const spec = NNPDF40_SPARSE_WORKLOAD;
    const { minTau, maxTau } = spec.hadronicKinematics!;
    const xGrid = interpolationXGrid(spec.xGrid);
    const table = randomHadronicTable('T', 2, [[1, 1]], xGrid, new SeededRandom(1));
    const lowest = applyKinematicLimits(table, Float64Array.from([minTau, minTau]));
    const highest = applyKinematicLimits(table, Float64Array.from([maxTau, maxTau]));
    expect(lowest).toBeCloseTo(0.061, 3);
    expect(highest).toBeCloseTo(0.42, 3);
  });
});
