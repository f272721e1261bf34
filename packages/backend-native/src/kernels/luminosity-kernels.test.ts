import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { nativeAvailable, randomTensor, runOn, worstRatio } from '../testing/native.fixture.js';
import { LUMINOSITY_CONTRACTION, LUMINOSITY_CONTRACTION_GRAD } from './luminosity-kernels.js';

interface Sizes {
  readonly replicas: number;
  readonly x: number;
  readonly channels: number;
  readonly data: number;
}

/**
 * The inputs of one contraction, from fixed seeds (the same on every backend). With `oneBeamPdf`
 * both factors hold the same values, as for a table whose two beams see one PDF: one tensor
 * for the fused kernel, and a copy for cpu autodiff so that its two gradients stay apart.
 */
function inputs({ replicas, x, channels, data }: Sizes, oneBeamPdf = false, fused = false) {
  const first = randomTensor([replicas, x, channels], 1);
  const second = oneBeamPdf
    ? fused
      ? first
      : first.clone()
    : randomTensor([replicas, x, channels], 2);
  return {
    first,
    second,
    fk: randomTensor([channels * x * x, data], 3, 0, 1),
    dy: randomTensor([replicas, data], 4),
  };
}

/** The luminosity `(replicas, channel · x1 · x2)` formed by broadcasting, as the layers do. */
function luminosity(first: tf.Tensor, second: tf.Tensor, { replicas, x, channels }: Sizes) {
  const channelMajor = (factors: tf.Tensor) => tf.transpose(factors, [0, 2, 1]);
  return tf.reshape(
    tf.mul(
      tf.reshape(channelMajor(first), [replicas, channels, x, 1]),
      tf.reshape(channelMajor(second), [replicas, channels, 1, x]),
    ),
    [replicas, channels * x * x],
  );
}

/** Forward on native through the fused kernel; on cpu by forming the luminosity. */
function forward(sizes: Sizes, fused: boolean, oneBeamPdf = false): tf.Tensor {
  const { first, second, fk } = inputs(sizes, oneBeamPdf, fused);
  if (fused) return tf.engine().runKernel<tf.Tensor>(LUMINOSITY_CONTRACTION, { first, second, fk });
  return tf.matMul(luminosity(first, second, sizes), fk);
}

/** `[dFirst, dSecond]` concatenated: fused kernel, or cpu autodiff through the luminosity. */
function backward(sizes: Sizes, fused: boolean, oneBeamPdf = false): tf.Tensor {
  const { first, second, fk, dy } = inputs(sizes, oneBeamPdf, fused);
  const gradients = fused
    ? tf.engine().runKernel<tf.Tensor[]>(LUMINOSITY_CONTRACTION_GRAD, { dy, first, second, fk })
    : tf.grads((f1: tf.Tensor, f2: tf.Tensor) =>
        tf.sum(tf.mul(tf.matMul(luminosity(f1, f2, sizes), fk), dy)),
      )([first, second]);
  return tf.concat(gradients.map((gradient) => tf.reshape(gradient, [-1])));
}

/** float32 sums of `terms` products of inputs in [−1, 1] may differ by `terms · 2⁻²³`. */
const tolerance = ({ x, channels, data }: Sizes, inner: number) =>
  Math.max(inner, 1) * 2 ** -23 * Math.max(x * x * channels, data);

const SIZES: readonly [string, Sizes][] = [
  ['small (one thread)', { replicas: 3, x: 5, channels: 4, data: 6 }],
  ['one replica, one channel', { replicas: 1, x: 7, channels: 1, data: 2 }],
  // Above the threading threshold, with more replicas than one buffer holds (145 at x = 60).
  ['threaded, many replica vectors', { replicas: 150, x: 60, channels: 4, data: 8 }],
  // 37 replicas fill a pair of 16-lane vectors and an 8-lane one with 3 padding lanes; 29 data
  // points and 13 x points are no multiple of the register tiles (12 data, 6 x points).
  ['threaded, tiles with remainders', { replicas: 37, x: 13, channels: 12, data: 29 }],
];

describe.skipIf(!nativeAvailable)('luminosity contraction kernels on native', () => {
  for (const [label, sizes] of SIZES) {
    it(`should equal the luminosity formed on cpu, forward (${label})`, async () => {
      const cpu = await runOn('cpu', () => forward(sizes, false));
      const native = await runOn('native', () => forward(sizes, true));
      expect(native.shape).toEqual([sizes.replicas, sizes.data]);
      const bound = tolerance(sizes, sizes.x * sizes.x * sizes.channels);
      expect(worstRatio(native.values, cpu.values, 0, bound)).toBeLessThanOrEqual(1);
    });

    it(`should equal cpu autodiff, backward (${label})`, async () => {
      const cpu = await runOn('cpu', () => backward(sizes, false));
      const native = await runOn('native', () => backward(sizes, true));
      expect(native.shape).toEqual(cpu.shape);
      const bound = tolerance(sizes, sizes.x * sizes.data);
      expect(worstRatio(native.values, cpu.values, 0, bound)).toBeLessThanOrEqual(1);
    });
  }

  it('should take one tensor for both beams, forward and backward', async () => {
    const sizes = { replicas: 21, x: 11, channels: 40, data: 14 };
    const cpuForward = await runOn('cpu', () => forward(sizes, false, true));
    const nativeForward = await runOn('native', () => forward(sizes, true, true));
    const forwardBound = tolerance(sizes, sizes.x * sizes.x * sizes.channels);
    expect(
      worstRatio(nativeForward.values, cpuForward.values, 0, forwardBound),
    ).toBeLessThanOrEqual(1);
    const cpuBackward = await runOn('cpu', () => backward(sizes, false, true));
    const nativeBackward = await runOn('native', () => backward(sizes, true, true));
    const backwardBound = tolerance(sizes, sizes.x * sizes.data);
    expect(
      worstRatio(nativeBackward.values, cpuBackward.values, 0, backwardBound),
    ).toBeLessThanOrEqual(1);
  });

  it('should overwrite recycled output buffers, and give zero gradients for no data', async () => {
    await tf.setBackend('native');
    const sizes = { replicas: 2, x: 3, channels: 2, data: 0 };
    // Freed NaN-filled arrays of the outputs' size are what the backend hands out next.
    tf.dispose(tf.fill([2 * 3 * 2], Number.NaN));
    const gradients = tf.tidy(() => {
      const { first, second, fk, dy } = inputs(sizes);
      return tf.engine().runKernel<tf.Tensor[]>(LUMINOSITY_CONTRACTION_GRAD, {
        dy,
        first,
        second,
        fk,
      });
    });
    expect(gradients.map((gradient) => Array.from(gradient.dataSync()))).toEqual([
      new Array(12).fill(0),
      new Array(12).fill(0),
    ]);
    tf.dispose(gradients);
  });

  it('should name the shapes when they do not fit together', async () => {
    await tf.setBackend('native');
    tf.tidy(() => {
      const first = tf.zeros([2, 3, 4]);
      const fk = tf.zeros([35, 2]);
      expect(() =>
        tf.engine().runKernel(LUMINOSITY_CONTRACTION, { first, second: first, fk }),
      ).toThrow(
        /fk \(channel · x · x, data\); got first \[2, 3, 4\], second \[2, 3, 4\], fk \[35, 2\]/,
      );
      const dy = tf.zeros([3, 2]);
      expect(() =>
        tf.engine().runKernel(LUMINOSITY_CONTRACTION_GRAD, {
          dy,
          first,
          second: first,
          fk: tf.zeros([36, 2]),
        }),
      ).toThrow(/dy must be \(replicas, data\) = \[2, 2\], got \[3, 2\]/);
    });
  });
});
