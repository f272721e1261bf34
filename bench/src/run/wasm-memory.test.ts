import { describe, expect, it } from 'vitest';
import { buildWorkload } from '../workloads/build-workload.js';
import { TINY_WORKLOAD } from '../workloads/workloads.fixture.js';
import { hadronicLuminosityBytes, WASM_MEMORY_BYTES, wasmMemoryProblem } from './wasm-memory.js';

describe('the wasm memory guard', () => {
  const { inputs } = buildWorkload(TINY_WORKLOAD, [1]);

  it('should count three float32 luminosities (replicas, x, x, channel) per hadronic table', () => {
    // one hadronic table on the 8-node grid with 4 channels
    expect(hadronicLuminosityBytes(inputs, 1)).toBe(3 * 8 * 8 * 4 * 4);
    expect(hadronicLuminosityBytes(inputs, 100)).toBe(100 * 3 * 8 * 8 * 4 * 4);
  });

  it('should refuse only what exceeds wasm memory, saying how much it would need', () => {
    expect(wasmMemoryProblem(inputs, 100)).toBeUndefined();
    const replicas = Math.ceil(WASM_MEMORY_BYTES / hadronicLuminosityBytes(inputs, 1)) + 1;
    expect(wasmMemoryProblem(inputs, replicas)).toMatch(/need ≈ 2\.0 GiB, beyond wasm's 2 GiB/);
  });
});
