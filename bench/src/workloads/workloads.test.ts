import { describe, expect, it } from 'vitest';
import { workloadCounts } from './workload-spec.js';
import { DIS_WORKLOAD, NNPDF40_WORKLOAD } from './workloads.js';

describe('benchmark workloads', () => {
  it('should give nnpdf40 the shapes of the issue: 3,000 DIS, 1,500 hadronic, 300 Lagrange points', () => {
    const counts = workloadCounts(NNPDF40_WORKLOAD);
    expect([counts.dis, counts.hadronic, counts.lagrange]).toEqual([3000, 1500, 300]);
    expect(NNPDF40_WORKLOAD.xGrid.nodes).toBe(50);
    expect(NNPDF40_WORKLOAD.disChannels).toHaveLength(9);
    expect(NNPDF40_WORKLOAD.hadronicChannels).toBe(40);
    expect(counts.blocks.reduce((sum, size) => sum + size, 0)).toBe(4500);
    expect(Math.max(...counts.blocks)).toBe(1145);
  });

  it('should make dis the DIS part of nnpdf40 alone', () => {
    const counts = workloadCounts(DIS_WORKLOAD);
    expect([counts.dis, counts.hadronic, counts.lagrange]).toEqual([3000, 0, 300]);
    expect(DIS_WORKLOAD.datasets.every((dataset) => dataset.kind === 'dis')).toBe(true);
  });
});
