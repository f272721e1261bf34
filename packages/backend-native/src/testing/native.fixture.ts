import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
// Registers the gradients of every kernel (tfjs-core alone has none).
import '@tensorflow/tfjs-layers';
import { backendStatus } from '../register-native-backend.js';

const status = backendStatus();

/** Whether the addon is built and the `native` backend registered; tests skip visibly if not. */
export const nativeAvailable = status.available;

if (!status.available) {
  console.warn(`@partonfit/backend-native tests skipped: ${status.reason}`);
}

/**
 * Uniform draws in [low, high) rounded to float32, from a seeded 32-bit linear congruential
 * stream with a multiply-xorshift output mix, so that every backend sees the same inputs.
 */
export function randomValues(size: number, seed: number, low = -1, high = 1): Float32Array {
  let state = Math.imul(seed + 1, 0x9e3779b9) >>> 0;
  const values = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    let mixed = state ^ (state >>> 16);
    mixed = Math.imul(mixed, 0x45d9f3b);
    mixed ^= mixed >>> 16;
    values[i] = low + ((high - low) * (mixed >>> 0)) / 4294967296;
  }
  return values;
}

/** A float32 tensor of the given shape filled by {@link randomValues}. */
export function randomTensor(shape: number[], seed: number, low = -1, high = 1): tf.Tensor {
  const size = shape.reduce((product, dim) => product * dim, 1);
  return tf.tensor(randomValues(size, seed, low, high), shape, 'float32');
}

/** The values and shape a computation gives on one backend, with its tensors freed after. */
export interface BackendResult {
  readonly values: Float32Array | Int32Array | Uint8Array;
  readonly shape: number[];
  readonly dtype: tf.DataType;
}

/** Runs `compute` on `backend` (tensors created inside it live on that backend). */
export async function runOn(
  backend: 'cpu' | 'native' | 'wasm',
  compute: () => tf.Tensor,
): Promise<BackendResult> {
  await tf.setBackend(backend);
  return tf.tidy(() => {
    const result = compute();
    return {
      values: result.dataSync(),
      shape: result.shape,
      dtype: result.dtype,
    };
  });
}

/** `compute` on the cpu backend and on the native one. */
export async function onCpuAndNative(
  compute: () => tf.Tensor,
): Promise<{ cpu: BackendResult; native: BackendResult }> {
  const cpu = await runOn('cpu', compute);
  const native = await runOn('native', compute);
  return { cpu, native };
}

/**
 * The largest `|actual − expected| / (relative · |expected| + absolute)` over the elements: at
 * most 1 means every element is within tolerance. NaN in the same places counts as equal;
 * different lengths give Infinity.
 */
export function worstRatio(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  relative: number,
  absolute: number,
): number {
  if (actual.length !== expected.length) return Number.POSITIVE_INFINITY;
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i] ?? Number.NaN;
    const e = expected[i] ?? Number.NaN;
    if (Number.isNaN(a) || Number.isNaN(e)) {
      if (Number.isNaN(a) !== Number.isNaN(e)) return Number.POSITIVE_INFINITY;
      continue;
    }
    if (a === e) continue;
    worst = Math.max(worst, Math.abs(a - e) / (relative * Math.abs(e) + absolute));
  }
  return worst;
}
