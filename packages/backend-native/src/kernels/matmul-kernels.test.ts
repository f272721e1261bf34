import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import {
  nativeAvailable,
  onCpuAndNative,
  randomTensor,
  randomValues,
  runOn,
  worstRatio,
} from '../testing/native.fixture.js';

/**
 * float32 products accumulate k rounding errors of at most 2⁻²⁴ of the running sum, which for
 * inputs in [−1, 1] is at most k: sgemm (blocked, FMA) and the cpu backend's float64 loop may
 * differ by up to k · 2⁻²³ absolutely.
 */
const productTolerance = (k: number) => k * 2 ** -23;

/** Row-major float64 batched product with broadcast batch axes, for shapes the cpu gets wrong. */
function referenceProduct(
  a: Float32Array,
  aBatch: number[],
  b: Float32Array,
  bBatch: number[],
  m: number,
  k: number,
  n: number,
): Float64Array {
  const [a0 = 1, a1 = 1] = aBatch;
  const [b0 = 1, b1 = 1] = bBatch;
  const d0 = Math.max(a0, b0);
  const d1 = Math.max(a1, b1);
  const out = new Float64Array(d0 * d1 * m * n);
  for (let i0 = 0; i0 < d0; i0++) {
    for (let i1 = 0; i1 < d1; i1++) {
      const aMatrix = (a0 === 1 ? 0 : i0) * a1 + (a1 === 1 ? 0 : i1);
      const bMatrix = (b0 === 1 ? 0 : i0) * b1 + (b1 === 1 ? 0 : i1);
      const entry = i0 * d1 + i1;
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let sum = 0;
          for (let p = 0; p < k; p++) {
            sum += (a[aMatrix * m * k + i * k + p] ?? 0) * (b[bMatrix * k * n + p * n + j] ?? 0);
          }
          out[entry * m * n + i * n + j] = sum;
        }
      }
    }
  }
  return out;
}

describe.skipIf(!nativeAvailable)('BatchMatMul on native', () => {
  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])(
    'should equal the cpu backend for 2-D products, transposeA=%s transposeB=%s',
    async (transposeA, transposeB) => {
      const [m, k, n] = [37, 53, 29];
      const { cpu, native } = await onCpuAndNative(() =>
        tf.matMul(
          randomTensor(transposeA ? [k, m] : [m, k], 1),
          randomTensor(transposeB ? [n, k] : [k, n], 2),
          transposeA,
          transposeB,
        ),
      );
      expect(native.shape).toEqual([m, n]);
      expect(worstRatio(native.values, cpu.values, 0, productTolerance(k))).toBeLessThanOrEqual(1);
    },
  );

  it.each([
    ['equal batches', [4, 23, 31], [4, 31, 17], false, false],
    ['equal batches, both transposed', [4, 31, 23], [4, 17, 31], true, true],
    ['a shared left operand (MultiDense first layer)', [23, 31], [6, 31, 17], false, false],
    ['a shared right operand (one tall product)', [6, 23, 31], [31, 17], false, false],
    ['a shared right operand with transposeA', [6, 31, 23], [1, 31, 17], true, false],
    ['large batched products split over threads', [3, 300, 200], [3, 150, 200], false, true],
    ['one large product split over threads', [517, 300], [300, 411], false, false],
    ['many replicas (R, points, in) @ (R, in, out)', [100, 150, 20], [100, 20, 25], false, false],
    [
      'their input gradients, (R, points, out) @ (R, in, out)ᵀ',
      [10, 150, 25],
      [10, 20, 25],
      false,
      true,
    ],
    [
      'their weight gradients, (R, points, in)ᵀ @ (R, points, out)',
      [10, 1500, 25],
      [10, 1500, 20],
      true,
      false,
    ],
    [
      'the shared first layer’s gradient, (points, 2)ᵀ @ (R, points, out)',
      [1500, 2],
      [10, 1500, 25],
      true,
      false,
    ],
    ['64 columns, the widest narrow product', [3, 200, 64], [3, 64, 64], false, false],
    ['65 columns, just past it', [3, 200, 65], [3, 65, 65], false, false],
    ['a narrow product split over threads', [5000, 20], [20, 25], false, false],
    ['a long inner dimension split over threads', [64, 8192], [8192, 80], false, false],
    [
      'one replica times an FK table, (1, x·x·channels) @ (x·x·channels, data)',
      [1, 20000],
      [20000, 17],
      false,
      false,
    ],
    ['a few replicas times an FK table with 64 data points', [3, 20000], [20000, 64], false, false],
    [
      'a few replicas’ gradients times the transposed FK table',
      [4, 100],
      [100, 5000],
      false,
      false,
    ],
    ['nine rows times a wide matrix', [9, 100], [100, 3000], false, false],
    ['a matrix times a vector', [3000, 185], [185, 1], false, false],
    ['a transposed matrix times a vector', [185, 3000], [185, 1], true, false],
    ['a matrix times a transposed vector', [3000, 185], [1, 185], false, true],
    ['two replicas times an FK table with 150 data points', [2, 3000], [3000, 150], false, false],
    ['ten replicas times an FK table with 171 data points', [10, 3000], [3000, 171], false, false],
    ['one row times a wide matrix of 33 columns', [1, 50], [50, 33], false, false],
    ['a long inner dimension, both transposed', [8192, 64], [80, 8192], true, true],
    // rows narrower than a 16-float vector, stored whole where the overhang lands on later rows
    ['rows of 3 columns, each store reaching 5 rows on', [7, 13], [13, 3], false, false],
    ['one row of 7 columns', [1, 6], [6, 7], false, false],
    ['batched rows of 5 columns, each entry its own product', [3, 4, 11], [3, 11, 5], false, false],
    ['rows of 14 columns, the basis rotation', [1200, 13], [13, 14], false, false],
    ['rows of 14 columns split over threads', [20000, 8], [8, 14], false, false],
    ['rows of 29 columns, two vectors each', [150, 29], [29, 29], false, false],
  ])(
    'should equal the cpu backend for %s',
    async (_, aShape: number[], bShape: number[], transposeA: boolean, transposeB: boolean) => {
      const k = (transposeA ? aShape.at(-2) : aShape.at(-1)) ?? 0;
      const { cpu, native } = await onCpuAndNative(() =>
        tf.matMul(randomTensor(aShape, 3), randomTensor(bShape, 4), transposeA, transposeB),
      );
      expect(native.shape).toEqual(cpu.shape);
      expect(worstRatio(native.values, cpu.values, 0, productTolerance(k))).toBeLessThanOrEqual(1);
    },
  );

  it('should broadcast batch axes both ways, (2, 1, m, k) @ (1, 3, k, n), like NumPy', async () => {
    const [m, k, n] = [5, 7, 4];
    const a = randomValues(2 * m * k, 5);
    const b = randomValues(3 * k * n, 6);
    const native = await runOn('native', () =>
      tf.matMul(tf.tensor(a, [2, 1, m, k]), tf.tensor(b, [1, 3, k, n])),
    );
    expect(native.shape).toEqual([2, 3, m, n]);
    const expected = referenceProduct(a, [2, 1], b, [1, 3], m, k, n);
    expect(worstRatio(native.values, expected, 0, productTolerance(k))).toBeLessThanOrEqual(1);
  });

  it('should give zeros for an empty inner dimension and an empty result for no rows', async () => {
    const inner = await runOn('native', () => tf.matMul(tf.zeros([3, 0]), tf.zeros([0, 2])));
    expect(Array.from(inner.values)).toEqual([0, 0, 0, 0, 0, 0]);
    const rows = await runOn('native', () => tf.matMul(tf.zeros([0, 4]), tf.ones([4, 2])));
    expect(rows.shape).toEqual([0, 2]);
  });

  it('should reject mismatched inner dimensions like the cpu backend', async () => {
    await tf.setBackend('native');
    expect(() => tf.matMul(tf.ones([2, 3]), tf.ones([4, 2]))).toThrow(
      /inner shapes \(3\) and \(4\)/,
    );
  });
});

describe.skipIf(!nativeAvailable)('_FusedMatMul on native', () => {
  const activations = ['linear', 'relu', 'relu6', 'elu', 'sigmoid', 'leakyrelu'] as const;

  it.each(activations)(
    'should equal the cpu backend with a column bias and %s',
    async (activation) => {
      const [m, k, n] = [64, 40, 33];
      const { cpu, native } = await onCpuAndNative(() =>
        tf.fused.matMul({
          a: randomTensor([m, k], 7),
          b: randomTensor([n, k], 8),
          transposeB: true,
          bias: randomTensor([n], 9),
          activation,
          leakyreluAlpha: 0.3,
        }),
      );
      expect(worstRatio(native.values, cpu.values, 0, productTolerance(k + 1))).toBeLessThanOrEqual(
        1,
      );
    },
  );

  it.each([
    ['a per-replica bias (R, 1, out)', [12, 50, 20], [12, 20, 25], [12, 1, 25]],
    ['a scalar bias', [12, 50, 20], [12, 20, 25], []],
    ['a bias along the rows (m, 1), added in a second pass', [50, 20], [20, 25], [50, 1]],
    ['a full bias (R, m, n)', [3, 50, 20], [3, 20, 25], [3, 50, 25]],
    ['a shared left operand and a per-replica bias', [150, 2], [10, 2, 25], [10, 1, 25]],
    ['a long inner dimension split over threads', [70, 6000], [6000, 90], [90]],
  ])(
    'should equal the cpu backend for %s',
    async (_, aShape: number[], bShape: number[], biasShape: number[]) => {
      const { cpu, native } = await onCpuAndNative(() =>
        tf.fused.matMul({
          a: randomTensor(aShape, 10),
          b: randomTensor(bShape, 11),
          bias: randomTensor(biasShape, 12),
          activation: 'elu',
        }),
      );
      expect(native.shape).toEqual(cpu.shape);
      const k = aShape.at(-1) ?? 0;
      expect(worstRatio(native.values, cpu.values, 0, productTolerance(k + 1))).toBeLessThanOrEqual(
        1,
      );
    },
  );

  it('should fall back to the cpu kernel for prelu and still agree', async () => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.fused.matMul({
        a: randomTensor([8, 6], 13),
        b: randomTensor([6, 5], 14),
        activation: 'prelu',
        preluActivationWeights: randomTensor([5], 15),
      }),
    );
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });
});
