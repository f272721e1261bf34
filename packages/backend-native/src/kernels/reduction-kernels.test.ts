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

/** One float32 unit in the last place, relative. */
const ULP = 2 ** -23;

describe.skipIf(!nativeAvailable)('reduction kernels on native', () => {
  const axesCases: [string, number[], number | number[] | undefined, boolean][] = [
    ['all axes', [13, 17, 19], undefined, false],
    ['the last axis', [13, 17, 19], -1, false],
    ['the first axis (bias gradient)', [13, 17, 19], 0, true],
    ['the middle axis', [13, 17, 19], 1, false],
    ['two adjacent axes', [13, 17, 19], [1, 2], true],
    ['two separated axes (transposed first)', [13, 17, 19], [0, 2], false],
    ['axes given out of order', [5, 6, 7, 8], [3, 1], true],
    ['the replica points of (R, points, out), split over threads', [100, 1500, 8], 1, false],
    ['all of a large tensor', [1000, 800], undefined, false],
    ['the rows of a tall matrix', [20000, 25], 0, false],
  ];
  const reductions: [
    string,
    (x: tf.Tensor, axis?: number | number[], keepDims?: boolean) => tf.Tensor,
  ][] = [
    ['sum', tf.sum],
    ['mean', tf.mean],
    ['max', tf.max],
    ['min', tf.min],
  ];

  // The cpu backend sums in float64 in the order of the elements (Mean divides each element by
  // the count first); the native sum is float64 too, in another order: they may differ by the
  // final float32 rounding of values of the size of Σ|x|.
  for (const [name, reduce] of reductions) {
    it.each(axesCases)(
      `should equal the cpu backend for ${name} over %s`,
      async (_, shape, axis, keepDims) => {
        const { cpu, native } = await onCpuAndNative(() =>
          reduce(randomTensor(shape, 1), axis, keepDims),
        );
        expect(native.shape).toEqual(cpu.shape);
        const absolute = await runOn('cpu', () => tf.sum(tf.abs(randomTensor(shape, 1)), axis));
        const scale = Math.max(...Array.from(absolute.values, Math.abs));
        const tolerance = name === 'max' || name === 'min' ? 0 : ULP * scale;
        expect(worstRatio(native.values, cpu.values, 0, tolerance + 1e-38)).toBeLessThanOrEqual(1);
      },
    );
  }

  it('should sum 10⁶ float32 values to float32 rounding of the exact float64 sum', async () => {
    const values = randomValues(1_000_000, 2, 0, 1);
    let exact = 0;
    for (const value of values) exact += value;
    const native = await runOn('native', () => tf.sum(tf.tensor1d(values)));
    // Correctly rounded or one ulp off: |error| ≤ 1 ulp of the result (a naive float32 loop is
    // off by ~150 ulp on these values).
    expect(Math.abs(native.values[0] - exact)).toBeLessThanOrEqual(ULP * exact);
    const mean = await runOn('native', () => tf.mean(tf.tensor1d(values)));
    expect(Math.abs(mean.values[0] - exact / 1e6)).toBeLessThanOrEqual((ULP * exact) / 1e6);
  });

  it('should sum 10⁶ values per column to float32 rounding too (blocked over threads)', async () => {
    const columns = 4;
    const values = randomValues(1_000_000 * columns, 3, 0, 1);
    const exact = new Float64Array(columns);
    for (let i = 0; i < values.length; i++) exact[i % columns] += values[i] ?? 0;
    const native = await runOn('native', () =>
      tf.sum(tf.tensor2d(values, [1_000_000, columns]), 0),
    );
    expect(worstRatio(native.values, exact, ULP, 0)).toBeLessThanOrEqual(1);
  });

  it('should return NaN for max and min when any element is NaN, like the cpu backend', async () => {
    const x = () => tf.tensor2d([1, Number.NaN, 3, 4, 5, 6], [2, 3]);
    const max = await runOn('native', () => tf.max(x(), 1));
    const min = await runOn('native', () => tf.min(x(), 1));
    expect(Array.from(max.values)).toEqual([Number.NaN, 6]);
    expect(Array.from(min.values)).toEqual([Number.NaN, 4]);
  });

  it('should give 0 for the sum and NaN for the mean of an empty axis', async () => {
    const sum = await runOn('native', () => tf.sum(tf.zeros([3, 0]), 1));
    const mean = await runOn('native', () => tf.mean(tf.zeros([3, 0]), 1));
    expect(Array.from(sum.values)).toEqual([0, 0, 0]);
    expect(Array.from(mean.values)).toEqual([Number.NaN, Number.NaN, Number.NaN]);
  });

  it('should leave int32 and bool sums to the cpu kernels', async () => {
    const ints = await runOn('native', () => tf.sum(tf.tensor1d([1, 2, 3], 'int32')));
    const bools = await runOn('native', () => tf.sum(tf.tensor1d([true, false, true], 'bool')));
    expect([ints.dtype, Array.from(ints.values)]).toEqual(['int32', [6]]);
    expect([bools.dtype, Array.from(bools.values)]).toEqual(['int32', [2]]);
  });
});
