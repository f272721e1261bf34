import * as tf from '@tensorflow/tfjs-core';
import { cyclingChannels } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { nativeAvailable, randomTensor, runOn, worstRatio } from '../testing/native.fixture.js';
import {
  LUMINOSITY_CONTRACTION_GRAD_KERNEL as LUMINOSITY_CONTRACTION_GRAD,
  LUMINOSITY_CONTRACTION_KERNEL as LUMINOSITY_CONTRACTION,
  luminosityContractionAttrs,
} from '@partonfit/backend';

interface Sizes {
  readonly replicas: number;
  readonly x: number;
  readonly flavours: number;
  readonly data: number;
  /** Each channel's two flavours. */
  readonly channels: readonly (readonly [number, number])[];
}

const flavourAttrs = ({ channels }: Sizes) => luminosityContractionAttrs(channels);

/** The inputs of one contraction, from fixed seeds (the same on every backend). */
function inputs({ replicas, x, flavours, data, channels }: Sizes) {
  return {
    pdf: randomTensor([replicas, x, flavours], 1),
    fk: randomTensor([channels.length * x * x, data], 3, 0, 1),
    dy: randomTensor([replicas, data], 4),
  };
}

/** The luminosity `(replicas, channel · x1 · x2)` formed by gathering and broadcasting. */
function luminosity(pdf: tf.Tensor, sizes: Sizes) {
  const { replicas, x, channels } = sizes;
  const { firstFlavours, secondFlavours } = flavourAttrs(sizes);
  const factors = (flavours: number[]) => tf.transpose(tf.gather(pdf, flavours, 2), [0, 2, 1]);
  return tf.reshape(
    tf.mul(
      tf.reshape(factors(firstFlavours), [replicas, channels.length, x, 1]),
      tf.reshape(factors(secondFlavours), [replicas, channels.length, 1, x]),
    ),
    [replicas, channels.length * x * x],
  );
}

/** Forward on native through the fused kernel; on cpu by forming the luminosity. */
function forward(sizes: Sizes, fused: boolean): tf.Tensor {
  const { pdf, fk } = inputs(sizes);
  if (fused) {
    return tf
      .engine()
      .runKernel<tf.Tensor>(LUMINOSITY_CONTRACTION, { pdf, fk }, flavourAttrs(sizes));
  }
  return tf.matMul(luminosity(pdf, sizes), fk);
}

/** `dPdf`: fused kernel, or cpu autodiff through the luminosity. */
function backward(sizes: Sizes, fused: boolean): tf.Tensor {
  const { pdf, fk, dy } = inputs(sizes);
  if (fused) {
    const [dPdf] = tf
      .engine()
      .runKernel<tf.Tensor[]>(LUMINOSITY_CONTRACTION_GRAD, { dy, pdf, fk }, flavourAttrs(sizes));
    return dPdf;
  }
  return tf.grad((p: tf.Tensor) => tf.sum(tf.mul(tf.matMul(luminosity(p, sizes), fk), dy)))(pdf);
}

/** float32 sums of `terms` products of inputs in [−1, 1] may differ by `terms · 2⁻²³`. */
const tolerance = ({ x, channels, data }: Sizes, inner: number) =>
  Math.max(inner, 1) * 2 ** -23 * Math.max(x * x * channels.length, data);

const SIZES: readonly [string, Sizes][] = [
  [
    'small (one thread)',
    { replicas: 3, x: 5, flavours: 3, data: 6, channels: cyclingChannels(3, 4) },
  ],
  ['one replica, one channel', { replicas: 1, x: 7, flavours: 2, data: 2, channels: [[1, 1]] }],
  // Above the threading threshold, with many replica vectors; every flavour pair of 14 appears
  // in both orders, and flavour 13 in no channel (its gradient must be 0).
  [
    'threaded, many replica vectors',
    { replicas: 150, x: 30, flavours: 14, data: 8, channels: cyclingChannels(13, 40) },
  ],
  // 37 replicas fill a pair of 16-lane vectors and an 8-lane one with 3 padding lanes; 29 data
  // points and 13 x points are no multiple of the register tiles (12 data, 6 x points).
  [
    'threaded, tiles with remainders',
    { replicas: 37, x: 13, flavours: 5, data: 29, channels: cyclingChannels(4, 12) },
  ],
];

describe.skipIf(!nativeAvailable)('luminosity contraction kernels on native', () => {
  for (const [label, sizes] of SIZES) {
    it(`should equal the luminosity formed on cpu, forward (${label})`, async () => {
      const cpu = await runOn('cpu', () => forward(sizes, false));
      const native = await runOn('native', () => forward(sizes, true));
      expect(native.shape).toEqual([sizes.replicas, sizes.data]);
      const bound = tolerance(sizes, sizes.x * sizes.x * sizes.channels.length);
      expect(worstRatio(native.values, cpu.values, 0, bound)).toBeLessThanOrEqual(1);
    });

    it(`should equal cpu autodiff, backward (${label})`, async () => {
      const cpu = await runOn('cpu', () => backward(sizes, false));
      const native = await runOn('native', () => backward(sizes, true));
      expect(native.shape).toEqual([sizes.replicas, sizes.x, sizes.flavours]);
      const bound = tolerance(sizes, sizes.x * sizes.data * sizes.channels.length);
      expect(worstRatio(native.values, cpu.values, 0, bound)).toBeLessThanOrEqual(1);
    });
  }

  it('should overwrite recycled output buffers, and give a zero gradient for no data', async () => {
    await tf.setBackend('native');
    const sizes: Sizes = { replicas: 2, x: 3, flavours: 2, data: 0, channels: [[0, 1]] };
    // A freed NaN-filled array of the output's size is what the backend hands out next.
    tf.dispose(tf.fill([2 * 3 * 2], Number.NaN));
    const gradient = tf.tidy(() => {
      const { pdf, fk, dy } = inputs(sizes);
      const [dPdf] = tf
        .engine()
        .runKernel<tf.Tensor[]>(LUMINOSITY_CONTRACTION_GRAD, { dy, pdf, fk }, flavourAttrs(sizes));
      return dPdf;
    });
    expect(Array.from(gradient.dataSync())).toEqual(new Array(12).fill(0));
    tf.dispose(gradient);
  });

  it('should name the shapes and flavours when they do not fit together', async () => {
    await tf.setBackend('native');
    tf.tidy(() => {
      const pdf = tf.zeros([2, 3, 4]);
      const attrs = { firstFlavours: [0, 1, 2, 3], secondFlavours: [0, 1, 2, 3] };
      expect(() =>
        tf.engine().runKernel(LUMINOSITY_CONTRACTION, { pdf, fk: tf.zeros([35, 2]) }, attrs),
      ).toThrow(
        'PartonfitLuminosityContraction: fk: expected shape [36, *] (channel · x1 · x2, data) for 4 channels and 3 x points, got [35, 2]',
      );
      const fk = tf.zeros([36, 2]);
      expect(() =>
        tf.engine().runKernel(LUMINOSITY_CONTRACTION, { pdf, fk }, { firstFlavours: [0, 1, 2, 3] }),
      ).toThrow(
        'PartonfitLuminosityContraction attribute secondFlavours: expected a list of flavour indices, one per channel',
      );
      expect(() =>
        tf
          .engine()
          .runKernel(
            LUMINOSITY_CONTRACTION,
            { pdf, fk },
            { firstFlavours: [0, 1, 2, 3], secondFlavours: [0, 4, 2, 3] },
          ),
      ).toThrow(
        'PartonfitLuminosityContraction attribute secondFlavours: channel 1 names flavour 4, outside [0, 4)',
      );
      expect(() =>
        tf
          .engine()
          .runKernel(LUMINOSITY_CONTRACTION_GRAD, { dy: tf.zeros([3, 2]), pdf, fk }, attrs),
      ).toThrow(
        'PartonfitLuminosityContractionGrad: dy: expected shape [2, 2] (replicas, data), got [3, 2]',
      );
    });
  });
});
