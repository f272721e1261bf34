import { convolutionMatrices } from './convolution.js';
import type { LogLagrangeBasis } from './interpolation.js';
import type { KernelMatrices, KernelMatrixPlan } from './kernel-matrices.js';

/**
 * Memory shared by the threads that compute a {@link KernelMatrixPlan}'s convolution matrices
 * together, each its share.
 */
export interface SharedKernelMemory {
  /** The plan's convolution matrices, (kernel, x, x) row-major float64. */
  readonly matrices: SharedArrayBuffer;
  /**
   * Int32 flags: entry k is 1 once kernel k's matrix is written; the entry after the last kernel
   * is 1 once the computation is abandoned (a thread failed).
   */
  readonly flags: SharedArrayBuffer;
}

/** Shared memory for `kernels` convolution matrices on an x-grid of n knots. */
export function sharedKernelMemory(kernels: number, n: number): SharedKernelMemory {
  return {
    matrices: new SharedArrayBuffer(kernels * n * n * Float64Array.BYTES_PER_ELEMENT),
    flags: new SharedArrayBuffer((kernels + 1) * Int32Array.BYTES_PER_ELEMENT),
  };
}

/** Tells the threads waiting for matrices in `memory` that the others have stopped. */
export function abandonSharedKernels(memory: SharedKernelMemory): void {
  const flags = new Int32Array(memory.flags);
  Atomics.store(flags, flags.length - 1, 1);
  Atomics.notify(flags, flags.length - 1);
  for (let k = 0; k + 1 < flags.length; k++) Atomics.notify(flags, k);
}

/** How long a thread waits for another's matrix before it looks whether the work was abandoned. */
const WAIT_MILLISECONDS = 100;

/**
 * A plan's kernel matrices computed by `shares` threads together: this thread computes its share
 * at once (the kernels of each group dealt in turn to the threads, so the costly orders are
 * split too) and writes them to `memory`; a matrix of another share is waited for when it is
 * first needed. The matrices are those {@link localKernelMatrices} computes, bit for bit.
 *
 * @param share - this thread's share, 0 … shares − 1
 * @throws Error when the computation is abandoned while this thread waits
 */
export function sharedKernelMatrices(
  plan: KernelMatrixPlan,
  basis: LogLagrangeBasis,
  memory: SharedKernelMemory,
  share: number,
  shares: number,
): KernelMatrices {
  const n = basis.xGrid.length;
  const size = n * n;
  const matrices = new Float64Array(memory.matrices);
  const flags = new Int32Array(memory.flags);
  const abandoned = plan.kernels.length;
  let dealt = 0;
  for (const group of plan.groups) {
    const own = group.filter(() => dealt++ % shares === share);
    if (own.length === 0) continue;
    const computed = convolutionMatrices(
      own.map((index) => plan.kernels[index]),
      basis,
    );
    own.forEach((index, k) => {
      matrices.set(computed[k], index * size);
      Atomics.store(flags, index, 1);
      Atomics.notify(flags, index);
    });
  }
  return plan.kernelMatrices((index) => {
    while (Atomics.load(flags, index) === 0) {
      if (Atomics.load(flags, abandoned) !== 0) {
        throw new Error('the threads computing the kernel matrices with this one have stopped');
      }
      Atomics.wait(flags, index, 0, WAIT_MILLISECONDS);
    }
    return matrices.subarray(index * size, (index + 1) * size);
  }, n);
}
