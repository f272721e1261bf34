import type { FitInputs } from '@partonfit/fktables';
import { KEEP_TRANSPOSE_MAX_VALUES } from '@partonfit/layers';

/**
 * What the wasm backend can address: its heap is a 32-bit WebAssembly memory (4 GiB; measured
 * growing to 3.9 GB here), and tfjs-wasm aborts the process ("memory access out of bounds")
 * rather than throwing when a step needs more.
 */
export const WASM_MEMORY_BYTES = 2 ** 32;

/**
 * Bytes the hadronic tables hold on wasm at a step's peak, a lower bound of the step's memory:
 * every FK table, `(x1 · x2 · channel, data)` float32, with its transpose when the layers keep
 * it (`fkTranspose: 'auto'`, tables of at most `KEEP_TRANSPOSE_MAX_VALUES` values), plus the
 * luminosity `(replicas, x1 · x2 · channel)` of the largest table three times over (the
 * luminosity or its gradient, and the temporaries that form and reduce it): the contraction
 * frees it before the next table's.
 */
export function hadronicPeakBytes(inputs: FitInputs, replicas: number): number {
  let tables = 0;
  let largestLuminosity = 0;
  for (const table of inputs.datasets.flatMap((dataset) => dataset.observable.operands.flat())) {
    if (table.kind !== 'hadronic') continue;
    const luminosity = table.nx * table.nx * table.channels.length;
    const values = luminosity * table.ndata;
    tables += (values <= KEEP_TRANSPOSE_MAX_VALUES ? 2 : 1) * values * 4;
    largestLuminosity = Math.max(largestLuminosity, luminosity);
  }
  return tables + 3 * replicas * largestLuminosity * 4;
}

/** Why a configuration cannot run on wasm, or undefined when it fits in its memory. */
export function wasmMemoryProblem(inputs: FitInputs, replicas: number): string | undefined {
  const bytes = hadronicPeakBytes(inputs, replicas);
  if (bytes <= WASM_MEMORY_BYTES) return undefined;
  return `the hadronic FK tables and a luminosity need ≈ ${(bytes / 2 ** 30).toFixed(1)} GiB, beyond wasm's ${WASM_MEMORY_BYTES / 2 ** 30} GiB memory`;
}
