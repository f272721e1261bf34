import { loadNativeAddon } from './addon/load-addon.js';

/** The float32 peak the native backend's BLAS reaches on this machine. */
export interface BlasPeak {
  /** n of each `(n, n) @ (n, n)` product. */
  readonly size: number;
  /** Products run at once, one per thread of the addon's pool. */
  readonly threads: number;
  /** Seconds of each timed round (every thread one product). */
  readonly roundSeconds: readonly number[];
  /** `threads · 2 n³` over the median round, GFLOP/s. */
  readonly gflops: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Measures the machine's float32 peak as the BLAS the addon was built against reaches it: every
 * thread of the addon's pool calls the BLAS's sgemm on its own pair of `(n, n)` matrices at the
 * same time, with nothing split, packed or added by the addon — the raw figure that `tf.matMul`
 * and the fused kernels are compared with.
 *
 * @param size - n of each product (1024 by default: large enough for the BLAS's peak, small
 *   enough for a few seconds in all)
 * @param rounds - timed rounds after one warm-up
 * @returns the peak, or undefined when the native addon is not loaded here
 * @example
 * ```ts typecheck-only
 * import { measureBlasPeak } from '@partonfit/backend-native';
 *
 * const peak = measureBlasPeak(1024, 5);
 * console.log(peak === undefined ? 'no native addon' : `${peak.gflops.toFixed(0)} GFLOP/s`);
 * ```
 */
export function measureBlasPeak(size = 1024, rounds = 5): BlasPeak | undefined {
  const { addon, status } = loadNativeAddon();
  if (addon === undefined) return undefined;
  const roundSeconds = Array.from(addon.timeParallelSgemm(size, rounds));
  const threads = status.threads;
  return {
    size,
    threads,
    roundSeconds,
    gflops: (threads * 2 * size ** 3) / median(roundSeconds) / 1e9,
  };
}
