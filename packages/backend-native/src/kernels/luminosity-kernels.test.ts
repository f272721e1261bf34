import * as tf from '@tensorflow/tfjs-core';
import { cyclingChannels } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../addon/index.js';
import { NativeBackend } from '../native-backend.js';
import {
  nativeAvailable,
  randomTensor,
  randomValues,
  runOn,
  worstRatio,
} from '../testing/native.fixture.js';
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
  /**
   * Hadronic kinematics: data point n is zero where x1 and x2 point indices sum to less than
   * `threshold[n]` (x1 · x2 < τ on a logarithmic grid), and so is every channel in
   * `zeroChannels`. Dense when absent.
   */
  readonly sparsity?: { readonly threshold: readonly number[]; readonly zeroChannels: number[] };
}

const flavourAttrs = ({ channels }: Sizes) => luminosityContractionAttrs(channels);

/** The FK table `(channel · x1 · x2, data)`, zero where the sizes' sparsity says. */
function fkValues({ x, data, channels, sparsity }: Sizes): Float32Array {
  const values = randomValues(channels.length * x * x * data, 3, 0, 1);
  if (sparsity === undefined) return values;
  for (let c = 0; c < channels.length; c++) {
    for (let a = 0; a < x; a++) {
      for (let b = 0; b < x; b++) {
        for (let n = 0; n < data; n++) {
          if (sparsity.zeroChannels.includes(c) || a + b < sparsity.threshold[n]) {
            values[((c * x + a) * x + b) * data + n] = 0;
          }
        }
      }
    }
  }
  return values;
}

/** The inputs of one contraction, from fixed seeds (the same on every backend). */
function inputs(sizes: Sizes) {
  const { replicas, x, flavours, data, channels } = sizes;
  return {
    pdf: randomTensor([replicas, x, flavours], 1),
    fk: tf.tensor2d(fkValues(sizes), [channels.length * x * x, data]),
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

/**
 * `dPdf` of the fused gradient kernel right after the forward kernel on the same PDF and table:
 * below the addon's `planeReplicas` it reads the half contractions the forward left.
 */
function backwardAfterForward(sizes: Sizes): tf.Tensor {
  const { pdf, fk, dy } = inputs(sizes);
  tf.engine().runKernel(LUMINOSITY_CONTRACTION, { pdf, fk }, flavourAttrs(sizes));
  const [dPdf] = tf
    .engine()
    .runKernel<tf.Tensor[]>(LUMINOSITY_CONTRACTION_GRAD, { dy, pdf, fk }, flavourAttrs(sizes));
  return dPdf;
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
  // points and 13 x points are no multiple of the register tiles (12 data, 6 x points) nor of
  // the resident backward's (chunks of up to 16 data points, 10 x2 points, the last tile moved
  // back over the one before).
  [
    'threaded, tiles with remainders',
    { replicas: 37, x: 13, flavours: 5, data: 29, channels: cyclingChannels(4, 12) },
  ],
  // Above the resident backward's 64 data points: the tile backward, here with 3 · 16 + 8 lanes
  // in one register tile.
  [
    'tile backward, 70 data points, a tile with an 8-lane vector',
    { replicas: 50, x: 12, flavours: 5, data: 70, channels: cyclingChannels(5, 6) },
  ],
  // 16 slots (one vector: the tile backward) and 8 slots (8-lane vectors only); an x-grid
  // narrower than a resident tile.
  [
    'one 16-lane vector',
    { replicas: 10, x: 9, flavours: 4, data: 20, channels: cyclingChannels(4, 5) },
  ],
  ['8 slots', { replicas: 7, x: 11, flavours: 4, data: 5, channels: cyclingChannels(4, 5) }],
  [
    'x-grid narrower than a resident tile',
    { replicas: 40, x: 7, flavours: 4, data: 12, channels: cyclingChannels(4, 5) },
  ],
  // Zero blocks the kernels skip: each data point has its own kinematic limit (from none to
  // beyond the grid, a point of zeros), one channel is zero throughout.
  [
    'zero blocks skipped',
    {
      replicas: 21,
      x: 11,
      flavours: 6,
      data: 15,
      channels: cyclingChannels(6, 9),
      sparsity: {
        threshold: [0, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 25, 12, 6, 2],
        zeroChannels: [4],
      },
    },
  ],
  // Below 7 replicas the table sits in the lanes (luminosity_planes.cc): each (channel, x1) row
  // is an (x2, data) plane of x · data values, summed in chunks of up to 24 vectors, then the
  // vectors left, then the values one by one; replicas go in blocks of up to 4.
  [
    'planes: two replicas, one thread, a plane of 30 values',
    { replicas: 2, x: 5, flavours: 3, data: 6, channels: cyclingChannels(3, 4) },
  ],
  [
    'planes: one replica, threaded, chunks with remainders',
    { replicas: 1, x: 50, flavours: 9, data: 37, channels: cyclingChannels(9, 30) },
  ],
  [
    'planes: six replicas in blocks of 4 and 2, threaded',
    { replicas: 6, x: 30, flavours: 14, data: 13, channels: cyclingChannels(13, 40) },
  ],
  // 70 data points: the half contractions of an x2 point take a group of 4 vectors and 1 more.
  [
    'planes: two replicas, 70 data points',
    { replicas: 2, x: 20, flavours: 5, data: 70, channels: cyclingChannels(5, 6) },
  ],
  // Every point is zero where x1 and x2 indices sum to less than 6, so rows of small x1 start
  // their non-zero part inside a chunk (planes skip a row only where all points are zero).
  [
    'planes: zero blocks skipped',
    {
      replicas: 3,
      x: 11,
      flavours: 6,
      data: 15,
      channels: cyclingChannels(6, 9),
      sparsity: {
        threshold: [6, 8, 7, 9, 11, 13, 15, 17, 19, 21, 25, 12, 6, 22, 30],
        zeroChannels: [4],
      },
    },
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

  const { planeReplicas } = nativeAvailable
    ? loadNativeAddon().addon!.info()
    : { planeReplicas: 0 };
  for (const [label, sizes] of SIZES.filter(([, { replicas }]) => replicas < planeReplicas)) {
    it(`should equal cpu autodiff from the forward's half contractions (${label})`, async () => {
      const cpu = await runOn('cpu', () => backward(sizes, false));
      const native = await runOn('native', () => backwardAfterForward(sizes));
      const bound = tolerance(sizes, sizes.x * sizes.data * sizes.channels.length);
      expect(worstRatio(native.values, cpu.values, 0, bound)).toBeLessThanOrEqual(1);
    });
  }

  it('should take the gradient from the half contractions of the same PDF and contraction only', async () => {
    const sizes: Sizes = {
      replicas: 2,
      x: 6,
      flavours: 3,
      data: 5,
      channels: cyclingChannels(3, 4),
    };
    const attrs = flavourAttrs(sizes);
    // The same table read with each channel's flavours swapped: another contraction.
    const swapped = luminosityContractionAttrs(
      sizes.channels.map(([first, second]) => [second, first]),
    );
    const gradient = (dy: tf.Tensor, pdf: tf.Tensor, fk: tf.Tensor, flavours = attrs) =>
      tf.engine().runKernel<tf.Tensor[]>(LUMINOSITY_CONTRACTION_GRAD, { dy, pdf, fk }, flavours)[0];
    await tf.setBackend('native');
    const gradients = tf.tidy(() => {
      const { pdf, fk, dy } = inputs(sizes);
      const before = [gradient(dy, pdf, fk), gradient(dy, pdf, fk, swapped)];
      tf.engine().runKernel(LUMINOSITY_CONTRACTION, { pdf, fk }, attrs);
      // Doubling the table behind the kernels' back: only a gradient that reads it sees that.
      const backend = tf.backend();
      if (!(backend instanceof NativeBackend)) throw new Error('the native backend is not active');
      const table = backend.data.get(fk.dataId).values as Float32Array;
      table.forEach((value, i) => (table[i] = 2 * value));
      const after = [
        gradient(dy, pdf, fk),
        gradient(dy, tf.add(pdf, 0), fk),
        gradient(dy, pdf, fk, swapped),
      ];
      return [...before, ...after];
    });
    const [original, originalSwapped, fromHalves, otherPdf, otherFlavours] = await Promise.all(
      gradients.map((tensor) => tensor.data()),
    );
    const doubled = (values: Float32Array | Int32Array | Uint8Array) =>
      values.map((value) => 2 * value);
    const bound = tolerance(sizes, sizes.x * sizes.data * sizes.channels.length);
    expect(worstRatio(fromHalves, original, 0, bound)).toBeLessThanOrEqual(1);
    expect(worstRatio(otherPdf, doubled(original), 0, bound)).toBeLessThanOrEqual(1);
    expect(worstRatio(otherFlavours, doubled(originalSwapped), 0, bound)).toBeLessThanOrEqual(1);
    expect(worstRatio(originalSwapped, original, 0, bound)).toBeGreaterThan(100);
    expect(Math.max(...Array.from(original, Math.abs))).toBeGreaterThan(100 * bound);
    tf.dispose(gradients);
  });

  it('should refuse half contractions at or above planeReplicas, or of the wrong size', () => {
    const { addon } = loadNativeAddon();
    const { planeReplicas: replicas } = addon!.info();
    const flavours = new Int32Array([0]);
    const call = (replicaCount: number, halves: Float32Array) => {
      addon!.luminosityContraction(
        new Float32Array(replicaCount * 3 * 2),
        new Float32Array(3 * 3 * 2),
        flavours,
        flavours,
        replicaCount,
        3,
        2,
        2,
        new Float32Array(replicaCount * 2),
        undefined,
        halves,
      );
    };
    expect(() => {
      call(replicas, new Float32Array(2 * replicas * 3 * 2));
    }).toThrow(
      `luminosity contraction: halfContractions are kept only below ${replicas} replicas, not for ${replicas}`,
    );
    expect(() => {
      call(1, new Float32Array(11));
    }).toThrow('halfContractions holds 11 elements, needs 12');
  });

  it('should mark where each column of a table is non-zero in x2', () => {
    const { addon } = loadNativeAddon();
    // One channel, x = 3, data = 2: point 0 is non-zero at (a, b) = (0, 1), (0, 2) and (2, 0);
    // point 1 only at (1, 1); row a = 1 of point 0 and rows 0 and 2 of point 1 are zero.
    const fk = new Float32Array(3 * 3 * 2);
    const set = (a: number, b: number, n: number, value: number) =>
      (fk[(a * 3 + b) * 2 + n] = value);
    set(0, 1, 0, 0.5);
    set(0, 2, 0, -2);
    set(2, 0, 0, 1e-30);
    set(1, 1, 1, 3);
    const support = new Int32Array(3 * 2 * 2).fill(-1);
    addon!.luminositySupport(fk, 1, 3, 2, support);
    // (a, n): [first b, one past the last]
    expect(Array.from(support)).toEqual([1, 3, 0, 0, 0, 0, 1, 2, 0, 1, 0, 0]);
  });

  it('should not reuse a support for a reshape of the same table', async () => {
    // Values 0, 1 and 2 are non-zero: as (1 channel, x 2, 4 data) at (a, b) = (0, 0) only; as
    // (2 channels, x 2, 2 data) also at (c, a, b, n) = (0, 0, 1, 0), which the first layout's
    // support read in the second would skip. Both layouts are sparse enough to be skipped.
    const values = Float32Array.from({ length: 16 }, (_, i) => (i < 3 ? 3 + 2 * i : 0));
    const pdfValues = [
      [0.5, 2],
      [-1, 3],
    ];
    const channels: [number, number][] = [
      [0, 1],
      [1, 0],
    ];
    const result = await runOn('native', () => {
      const fk = tf.tensor2d(values, [4, 4]);
      const pdf = tf.tensor3d([pdfValues], [1, 2, 2]);
      tf.engine().runKernel(
        LUMINOSITY_CONTRACTION,
        { pdf, fk },
        luminosityContractionAttrs([[0, 1]]),
      );
      return tf
        .engine()
        .runKernel<tf.Tensor>(
          LUMINOSITY_CONTRACTION,
          { pdf, fk: tf.reshape(fk, [8, 2]) },
          luminosityContractionAttrs(channels),
        );
    });
    // Σ_{c, a, b} pdf[a, f1(c)] · pdf[b, f2(c)] · fk[(c, a, b), n], by hand
    const expected = [0, 1].map((n) => {
      let sum = 0;
      channels.forEach(([first, second], c) => {
        for (let a = 0; a < 2; a++) {
          for (let b = 0; b < 2; b++) {
            sum +=
              pdfValues[a][first] * pdfValues[b][second] * values[((c * 2 + a) * 2 + b) * 2 + n];
          }
        }
      });
      return sum;
    });
    expect(Array.from(result.values)).toEqual(expected);
  });

  it('should refuse a support that is no range of x2 points', () => {
    const { addon } = loadNativeAddon();
    const { pdf, fk, support } = {
      pdf: new Float32Array(1 * 3 * 2),
      fk: new Float32Array(3 * 3 * 2),
      support: new Int32Array([0, 3, 0, 0, 2, 4, 0, 0, 1, 1, 0, 0]),
    };
    const out = new Float32Array(2);
    const flavours = new Int32Array([0]);
    expect(() => {
      addon!.luminosityContraction(pdf, fk, flavours, flavours, 1, 3, 2, 2, out, support);
    }).toThrow(
      'luminosity contraction: support entry 2 is [2, 4), not a range of x2 points in [0, 3]',
    );
    expect(() => {
      addon!.luminosityContraction(pdf, fk, flavours, flavours, 1, 3, 2, 2, out, support.slice(1));
    }).toThrow('support holds 11 elements, needs 12');
  });

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
