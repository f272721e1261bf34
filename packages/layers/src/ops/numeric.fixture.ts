import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { SeededRandom } from '@partonfit/core';
import { expect } from 'vitest';

/** Uniform draws in [low, high), float64, from a seeded generator. */
export function randomArray(size: number, seed: number, low = -1, high = 1): Float64Array {
  const random = new SeededRandom(seed);
  return Float64Array.from({ length: size }, () => low + (high - low) * random.uniform());
}

/** The float32 rounding of a float64 array, so that tensors and loops see the same inputs. */
export function toFloat32(values: Float64Array): Float32Array {
  return Float32Array.from(values);
}

/** Row-major float64 product `(rows, inner) @ (inner, columns)`. */
export function matMul64(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  rows: number,
  inner: number,
  columns: number,
): Float64Array {
  const out = new Float64Array(rows * columns);
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < inner; k++) {
      const aik = a[i * inner + k] ?? 0;
      for (let j = 0; j < columns; j++) out[i * columns + j] += aik * (b[k * columns + j] ?? 0);
    }
  }
  return out;
}

/**
 * The worst ratio over the elements of `|actual − expected|` to its float32 allowance
 * `tolerance · scale`, where `scale` is the magnitude rounding errors grow with (by default the
 * largest |expected|; for sums of many terms, Σ|terms| per element). At most 1 means close; NaN
 * anywhere gives NaN; a length mismatch gives Infinity.
 */
export function worstError(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  tolerance = 1e-5,
  scale?: ArrayLike<number>,
): number {
  if (actual.length !== expected.length) return Number.POSITIVE_INFINITY;
  let largest = 0;
  for (let i = 0; i < expected.length; i++) largest = Math.max(largest, Math.abs(expected[i]));
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    const bound = tolerance * (scale === undefined ? largest : scale[i]) + 1e-30;
    const ratio = Math.abs(actual[i] - expected[i]) / bound;
    if (Number.isNaN(ratio)) return Number.NaN;
    worst = Math.max(worst, ratio);
  }
  return worst;
}

/** Asserts {@link worstError} is at most 1. */
export function expectClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  tolerance = 1e-5,
  scale?: ArrayLike<number>,
): void {
  expect(worstError(actual, expected, tolerance, scale)).toBeLessThanOrEqual(1);
}

/** The values of a tensor as float64, disposing nothing. */
export function values(tensor: tf.Tensor): Float64Array {
  return Float64Array.from(tensor.dataSync());
}

/** Number of live tensors after running `step` `times` times, minus the number before. */
export function tensorGrowth(step: () => void, times = 100): number {
  step();
  const before = tf.memory().numTensors;
  for (let i = 0; i < times; i++) step();
  return tf.memory().numTensors - before;
}

/** Live tensors left behind by 100 forward and backward passes of each layer on `input`. */
export function layerGradientGrowth(layers: readonly tfl.layers.Layer[], input: tf.Tensor): number {
  return tensorGrowth(() => {
    tf.tidy(() => {
      for (const layer of layers) {
        tf.grad((x: tf.Tensor) => tf.sum(layer.apply(x) as tf.Tensor))(input);
      }
    });
  });
}

/** A model saved to memory (`model.json` + weights) and loaded back. */
export async function saveAndReload(model: tfl.LayersModel): Promise<tfl.LayersModel> {
  let saved: tf.io.ModelArtifacts | undefined;
  await model.save(
    tf.io.withSaveHandler((artifacts) => {
      saved = artifacts;
      return Promise.resolve({
        modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON' },
      });
    }),
  );
  if (saved === undefined) throw new Error('the model was not saved');
  return tfl.loadLayersModel(tf.io.fromMemory(saved));
}
