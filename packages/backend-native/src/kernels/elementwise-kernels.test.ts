import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import {
  nativeAvailable,
  onCpuAndNative,
  randomTensor,
  runOn,
  worstRatio,
} from '../testing/native.fixture.js';

/** One float32 unit in the last place, relative. */
const ULP = 2 ** -23;

/** Inputs spanning signs and magnitudes, plus the special values every kernel must pass on. */
function inputsWithSpecials(size: number, seed: number, low: number, high: number): tf.Tensor {
  const random = randomTensor([size], seed, low, high).dataSync();
  return tf.tensor1d([...random, 0, -0, Number.NaN, Number.POSITIVE_INFINITY, -Infinity]);
}

describe.skipIf(!nativeAvailable)('unary kernels on native', () => {
  // [op, input range, relative tolerance, absolute tolerance]: exp, tanh and sigmoid are the
  // addon's vectorized polynomials (measured ≤ 1 ulp from the correctly rounded value; allowed
  // 2), the rest the C library's float functions.
  const cases: [string, (x: tf.Tensor) => tf.Tensor, number, number, number][] = [
    ['exp', tf.exp, -90, 90, 2 * ULP],
    ['log', tf.log, 1e-6, 100, 2 * ULP],
    ['tanh', tf.tanh, -12, 12, 2 * ULP],
    ['sigmoid', tf.sigmoid, -30, 30, 2 * ULP],
    ['sqrt', tf.sqrt, 0, 100, ULP],
    ['square', tf.square, -100, 100, ULP],
    ['elu', tf.elu, -20, 20, 2 * ULP],
    ['neg', tf.neg, -5, 5, 0],
    ['abs', tf.abs, -5, 5, 0],
    ['relu', tf.relu, -5, 5, 0],
    ['relu6', tf.relu6, -10, 10, 0],
    ['rsqrt', tf.rsqrt, 1e-3, 100, 2 * ULP],
    ['reciprocal', tf.reciprocal, -10, 10, ULP],
    ['softplus', tf.softplus, -30, 30, 2 * ULP],
    ['log1p', tf.log1p, -0.9, 10, 2 * ULP],
    ['expm1', tf.expm1, -10, 10, 2 * ULP],
    ['leakyRelu', (x) => tf.leakyRelu(x, 0.1), -5, 5, ULP],
    ['step', (x) => tf.step(x, 0.25), -5, 5, 0],
  ];

  it.each(cases)(
    'should equal the cpu backend for %s, special values included',
    async (_, op, low, high, relative) => {
      const { cpu, native } = await onCpuAndNative(() =>
        op(inputsWithSpecials(5000, 1, low, high)),
      );
      expect(worstRatio(native.values, cpu.values, relative, 1e-38)).toBeLessThanOrEqual(1);
    },
  );

  it('should split large tensors over the thread pool and still equal the cpu backend', async () => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.tanh(randomTensor([300, 1000], 2, -4, 4)),
    );
    expect(worstRatio(native.values, cpu.values, 2 * ULP, 1e-38)).toBeLessThanOrEqual(1);
  });

  it.each([
    ['exp', tf.exp],
    ['tanh', tf.tanh],
    ['sigmoid', tf.sigmoid],
  ] as const)(
    'should give each element of %s the same bits wherever it sits in the array',
    async (_, op) => {
      // a replica's numbers must not depend on how many replicas share a tensor: the 11-element
      // pieces put every element at another place relative to the vectors than the whole does
      const values = randomTensor([2048], 3, -4, 4).dataSync();
      const whole = (await runOn('native', () => op(tf.tensor1d(values)))).values;
      const pieces: number[] = [];
      for (let start = 0; start < values.length; start += 11) {
        const piece = values.slice(start, start + 11);
        pieces.push(...(await runOn('native', () => op(tf.tensor1d(piece)))).values);
      }
      expect(pieces).toEqual(Array.from(whole));
    },
  );

  it('should leave int32 tensors to the cpu kernels', async () => {
    const native = await runOn('native', () => tf.abs(tf.tensor1d([-3, 4], 'int32')));
    expect(native.dtype).toBe('int32');
    expect(Array.from(native.values)).toEqual([3, 4]);
  });
});

describe.skipIf(!nativeAvailable)('binary kernels on native', () => {
  const ops: [string, (a: tf.Tensor, b: tf.Tensor) => tf.Tensor, number][] = [
    ['add', tf.add, 0],
    ['sub', tf.sub, 0],
    ['mul', tf.mul, 0],
    ['div', tf.div, 0],
    ['pow', (a, b) => tf.pow(tf.abs(a), b), ULP],
    ['maximum', tf.maximum, 0],
    ['minimum', tf.minimum, 0],
    ['squaredDifference', tf.squaredDifference, 0],
  ];
  const shapes: [string, number[], number[]][] = [
    ['equal shapes', [7, 11, 13], [7, 11, 13]],
    ['a scalar right operand', [7, 11, 13], []],
    ['a scalar left operand', [], [7, 11, 13]],
    ['a row vector (bias)', [7, 11, 13], [13]],
    ['a column (7, 1, 1)', [7, 11, 13], [7, 1, 1]],
    ['a middle broadcast (7, 1, 13)', [7, 11, 13], [7, 1, 13]],
    ['both broadcast (7, 1, 13) with (11, 1)', [7, 1, 13], [11, 1]],
    ['an outer product (5, 1) with (1, 6)', [5, 1], [1, 6]],
    ['rank 6 with broadcasts', [2, 1, 3, 1, 4, 5], [1, 3, 1, 2, 1, 5]],
    ['a large tensor split over threads', [100, 150, 25], [100, 1, 25]],
  ];

  for (const [name, op, relative] of ops) {
    it.each(shapes)(
      `should equal the cpu backend for ${name} with %s`,
      async (_, aShape, bShape) => {
        const { cpu, native } = await onCpuAndNative(() =>
          op(randomTensor(aShape, 3, -2, 2), randomTensor(bShape, 4, -2, 2)),
        );
        expect(native.shape).toEqual(cpu.shape);
        expect(worstRatio(native.values, cpu.values, relative, 1e-38)).toBeLessThanOrEqual(1);
      },
    );
  }

  it('should propagate NaN through maximum and minimum like Math.max and Math.min', async () => {
    const pair = () => [tf.tensor1d([Number.NaN, 1, 2]), tf.tensor1d([0, Number.NaN, 3])] as const;
    const maximum = await runOn('native', () => tf.maximum(...pair()));
    const minimum = await runOn('native', () => tf.minimum(...pair()));
    expect(Array.from(maximum.values)).toEqual([Number.NaN, Number.NaN, 3]);
    expect(Array.from(minimum.values)).toEqual([Number.NaN, Number.NaN, 2]);
  });

  // The gradient is w·(elu(x) + 1) below zero: the ≤ 2 ulp by which elu(x) may differ (|elu| < 1)
  // becomes an absolute difference of up to 2 ulp of 1 times |w| ≤ 1.
  it('should compute the elu gradient kernel like the cpu backend', async () => {
    const { cpu, native } = await onCpuAndNative(() => {
      const x = randomTensor([40, 30], 5, -3, 3);
      return tf.grad((input: tf.Tensor) => tf.sum(tf.mul(tf.elu(input), randomTensor([30], 6))))(x);
    });
    expect(worstRatio(native.values, cpu.values, 2 * ULP, 2 * ULP)).toBeLessThanOrEqual(1);
  });

  it('should leave int32 arithmetic to the cpu kernels', async () => {
    const native = await runOn('native', () =>
      tf.add(tf.tensor1d([1, 2], 'int32'), tf.tensor1d([3, 4], 'int32')),
    );
    expect(native.dtype).toBe('int32');
    expect(Array.from(native.values)).toEqual([4, 6]);
  });
});

describe.skipIf(!nativeAvailable)('comparison kernels on native', () => {
  const comparisons: [string, (a: tf.Tensor, b: tf.Tensor) => tf.Tensor][] = [
    ['equal', tf.equal],
    ['notEqual', tf.notEqual],
    ['less', tf.less],
    ['lessEqual', tf.lessEqual],
    ['greater', tf.greater],
    ['greaterEqual', tf.greaterEqual],
  ];

  it.each(comparisons)(
    'should equal the cpu backend for %s with broadcasting, ties and NaN',
    async (_, compare) => {
      const { cpu, native } = await onCpuAndNative(() => {
        // Rounded to steps of 0.25 so that many pairs tie; a row of NaN in a, one NaN in b.
        const quarters = (shape: number[], seed: number) =>
          tf.div(tf.round(tf.mul(randomTensor(shape, seed), 4)), 4);
        const a = tf.concat([quarters([40, 30], 11), tf.fill([1, 30], Number.NaN)]);
        const b = tf.concat([quarters([1, 29], 12), tf.fill([1, 1], Number.NaN)], 1);
        return compare(a, b);
      });
      expect(native.dtype).toBe('bool');
      expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
    },
  );

  it('should leave int32 comparisons to the cpu kernels', async () => {
    const native = await runOn('native', () =>
      tf.less(tf.tensor1d([1, 5], 'int32'), tf.tensor1d([3, 3], 'int32')),
    );
    expect([native.dtype, Array.from(native.values)]).toEqual(['bool', [1, 0]]);
  });
});

describe.skipIf(!nativeAvailable)('Select on native', () => {
  it('should equal the cpu backend for tf.where with a broadcast condition', async () => {
    const { cpu, native } = await onCpuAndNative(() => {
      const condition = tf.greater(randomTensor([100, 1], 7), 0);
      return tf.where(condition, randomTensor([100, 50], 8), randomTensor([100, 50], 9));
    });
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });

  it('should select element by element on a large tensor', async () => {
    const { cpu, native } = await onCpuAndNative(() => {
      const values = randomTensor([200, 500], 10);
      return tf.where(tf.less(values, 0.3), values, tf.zerosLike(values));
    });
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });
});
