import { describe, expect, it } from 'vitest';
import { buildWorkload } from '../workloads/build-workload.js';
import { TINY_WORKLOAD } from '../workloads/workloads.fixture.js';
import { hadronicPeakBytes, WASM_MEMORY_BYTES, wasmMemoryProblem } from './wasm-memory.js';

describe('the wasm memory guard', () => {
  const { inputs } = buildWorkload(TINY_WORKLOAD, [1]);
  // The tiny workload's one hadronic table: 8 x nodes, 4 channels, its data points.
  const table = inputs.datasets
    .flatMap((dataset) => dataset.observable.operands.flat())
    .find((fk) => fk.kind === 'hadronic');

  it('should count the FK table with its kept transpose, and three luminosities of the largest table', () => {
    expect(table).toMatchObject({ nx: 8 });
    const ndata = table?.ndata ?? Number.NaN;
    expect(hadronicPeakBytes(inputs, 1)).toBe(2 * 8 * 8 * 4 * ndata * 4 + 3 * 8 * 8 * 4 * 4);
    expect(hadronicPeakBytes(inputs, 100)).toBe(
      2 * 8 * 8 * 4 * ndata * 4 + 100 * 3 * 8 * 8 * 4 * 4,
    );
  });

  it('should refuse only what exceeds wasm memory, saying how much it would need', () => {
    expect(wasmMemoryProblem(inputs, 100)).toBeUndefined();
    const perReplica = hadronicPeakBytes(inputs, 2) - hadronicPeakBytes(inputs, 1);
    const replicas = Math.ceil(WASM_MEMORY_BYTES / perReplica) + 1;
    expect(wasmMemoryProblem(inputs, replicas)).toMatch(/need ≈ 4\.0 GiB, beyond wasm's 4 GiB/);
  });
});
