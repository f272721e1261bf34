import type { FitInputs } from '@partonfit/fktables';

/**
 * What the wasm backend can address: its heap is a 32-bit WebAssembly memory, and tfjs-wasm
 * aborts the process ("memory access out of bounds") rather than throwing when a step needs more.
 */
export const WASM_MEMORY_BYTES = 2 ** 31;

/**
 * Bytes per step of the hadronic luminosities, a lower bound of the step's peak memory: every
 * hadronic FK table forms f(x1)·f(x2) over its channels for every replica, `(replicas, x1, x2,
 * channel)` float32, and the backward pass keeps it and its gradient alive, with one more
 * temporary of the same size.
 */
export function hadronicLuminosityBytes(inputs: FitInputs, replicas: number): number {
  const perReplica = inputs.datasets
    .flatMap((dataset) => dataset.observable.operands.flat())
    .reduce(
      (sum, table) =>
        table.kind === 'hadronic' ? sum + table.nx * table.nx * table.channels.length * 4 : sum,
      0,
    );
  return 3 * replicas * perReplica;
}

/** Why a configuration cannot run on wasm, or undefined when it fits in its memory. */
export function wasmMemoryProblem(inputs: FitInputs, replicas: number): string | undefined {
  const bytes = hadronicLuminosityBytes(inputs, replicas);
  if (bytes <= WASM_MEMORY_BYTES) return undefined;
  return `the hadronic luminosities alone need ≈ ${(bytes / 2 ** 30).toFixed(1)} GiB, beyond wasm's ${WASM_MEMORY_BYTES / 2 ** 30} GiB memory`;
}
