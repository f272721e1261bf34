import * as tf from '@tensorflow/tfjs-core';
import type { SampleSummary } from '../stats/summary.js';
import { timeRepeated } from './time-repeated.js';

/** Sizes tried, ascending: the largest whose product takes under {@link PROBE_MS} is measured. */
export const SGEMM_SIZES = [256, 512, 1024, 2048] as const;

/** A product slower than this stops the size search (the cpu backend stops at 512). */
export const PROBE_MS = 250;

/** The float32 matrix-product throughput of the active backend. */
export interface SgemmThroughput {
  /** n of the `(n, n) @ (n, n)` product. */
  readonly size: number;
  /** ms per product. */
  readonly stats: SampleSummary;
  /** 2 n³ / median, GFLOP/s. */
  readonly gflops: number;
}

/** FLOPs of an `(n, n) @ (n, n)` product. */
export function productFlops(size: number): number {
  return 2 * size ** 3;
}

function timeOne(a: tf.Tensor2D, b: tf.Tensor2D): number {
  const start = performance.now();
  const product = tf.matMul(a, b);
  product.dataSync();
  const ms = performance.now() - start;
  product.dispose();
  return ms;
}

/**
 * Measures `tf.matMul` of two seeded `(n, n)` float32 matrices on the active backend: the largest
 * n of {@link SGEMM_SIZES} whose first product takes under {@link PROBE_MS}, then `repeats` timed
 * products after one warm-up. On the native backend this is the BLAS's sgemm split over the
 * addon's threads: the machine's float32 peak that the matrix-bound components are compared with.
 */
export async function measureSgemmThroughput(repeats: number): Promise<SgemmThroughput> {
  let chosen: number = SGEMM_SIZES[0];
  for (const size of SGEMM_SIZES) {
    chosen = size;
    const [a, b] = [1, 2].map((seed) => tf.randomUniform([size, size], -1, 1, 'float32', seed));
    const ms = timeOne(a as tf.Tensor2D, b as tf.Tensor2D);
    tf.dispose([a, b]);
    if (ms >= PROBE_MS) break;
  }
  const [a, b] = [3, 4].map((seed) => tf.randomUniform([chosen, chosen], -1, 1, 'float32', seed));
  try {
    const stats = await timeRepeated(() => {
      timeOne(a as tf.Tensor2D, b as tf.Tensor2D);
    }, repeats);
    return { size: chosen, stats, gflops: productFlops(chosen) / stats.median / 1e6 };
  } finally {
    tf.dispose([a, b]);
  }
}
