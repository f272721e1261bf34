import * as tf from '@tensorflow/tfjs-core';
import type { BenchStep } from '../steps/bench-step.js';

/** One kernel's share of a profiled step. */
export interface KernelTime {
  /** The tfjs kernel name, e.g. `BatchMatMul`, `Tanh`. */
  readonly kernel: string;
  /** Summed kernel time over the step, ms. */
  readonly ms: number;
  /** Number of calls in the step. */
  readonly calls: number;
}

/** The kernels of one profiled step. */
export interface StepProfile {
  /** Wall time of the profiled step, ms (profiling adds overhead: compare shares, not totals). */
  readonly wallMs: number;
  /** Sum of the registered kernels' times, ms. */
  readonly kernelMs: number;
  /** Number of registered kernels the step ran (its dispatches), all names together. */
  readonly kernelCalls: number;
  /** The kernels by summed time, largest first. */
  readonly kernels: readonly KernelTime[];
}

/**
 * Runs one step under `tf.profile` and sums the kernel times by kernel name. Only registered
 * kernels of the active backend are counted: custom-gradient operations appear in the profile
 * under their scope's name and contain kernels that are profiled themselves, so counting them too
 * would count time twice.
 *
 * @param top - how many kernels to keep
 */
export async function profileStep(step: BenchStep, epoch: number, top = 12): Promise<StepProfile> {
  const backend = tf.getBackend();
  const start = performance.now();
  const info = await tf.profile(async () => {
    await step.run(epoch);
  });
  const wallMs = performance.now() - start;
  const registered = new Set(tf.getKernelsForBackend(backend).map((kernel) => kernel.kernelName));
  const byName = new Map<string, { ms: number; calls: number }>();
  for (const kernel of info.kernels) {
    if (!registered.has(kernel.name)) continue;
    const ms = typeof kernel.kernelTimeMs === 'number' ? kernel.kernelTimeMs : 0;
    const entry = byName.get(kernel.name) ?? { ms: 0, calls: 0 };
    byName.set(kernel.name, { ms: entry.ms + ms, calls: entry.calls + 1 });
  }
  const kernels = [...byName]
    .map(([kernel, { ms, calls }]) => ({ kernel, ms, calls }))
    .sort((a, b) => b.ms - a.ms);
  return {
    wallMs,
    kernelMs: kernels.reduce((sum, kernel) => sum + kernel.ms, 0),
    kernelCalls: kernels.reduce((sum, kernel) => sum + kernel.calls, 0),
    kernels: kernels.slice(0, top),
  };
}
