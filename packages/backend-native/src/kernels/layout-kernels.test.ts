import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { nativeAvailable, onCpuAndNative, randomTensor, runOn } from '../testing/native.fixture.js';

describe.skipIf(!nativeAvailable)('Transpose on native', () => {
  it.each([
    ['a matrix', [37, 53], [1, 0]],
    ['a batch of matrices (R, points, out) → (R, out, points)', [10, 150, 25], [0, 2, 1]],
    ['replicas to the middle (points, R, out) → (R, points, out)', [150, 10, 25], [1, 0, 2]],
    ['a rank-4 permutation', [3, 4, 5, 6], [2, 0, 3, 1]],
    ['size-1 axes', [1, 7, 1, 9], [3, 2, 1, 0]],
    ['the identity', [4, 5, 6], [0, 1, 2]],
    ['a large matrix split over threads', [700, 900], [1, 0]],
  ])('should equal the cpu backend for %s', async (_, shape, perm) => {
    const { cpu, native } = await onCpuAndNative(() => tf.transpose(randomTensor(shape, 1), perm));
    expect(native.shape).toEqual(cpu.shape);
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });

  it('should transpose int32 tensors bit for bit', async () => {
    const native = await runOn('native', () =>
      tf.transpose(tf.tensor2d([1, 2, 3, 4, 5, 6], [2, 3], 'int32')),
    );
    expect([native.dtype, Array.from(native.values)]).toEqual(['int32', [1, 4, 2, 5, 3, 6]]);
  });
});

describe.skipIf(!nativeAvailable)('Concat and Slice on native', () => {
  it.each([
    ['the first axis', 0],
    ['the middle axis', 1],
    ['the last axis', 2],
  ])('should concatenate like the cpu backend along %s', async (_, axis) => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.concat(
        [randomTensor([4, 5, 6], 2), randomTensor([4, 5, 6], 3), randomTensor([4, 5, 6], 4)],
        axis,
      ),
    );
    expect(native.shape).toEqual(cpu.shape);
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });

  it('should concatenate inputs of different lengths and a large result', async () => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.concat(
        [randomTensor([300, 100], 5), randomTensor([300, 7], 6), randomTensor([300, 250], 7)],
        1,
      ),
    );
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });

  it('should leave empty inputs and single inputs to the cpu kernel', async () => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.concat([tf.zeros([2, 0]), randomTensor([2, 3], 8)], 1),
    );
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });

  it.each([
    ['columns of a matrix', [20, 30], [0, 5], [20, 10]],
    ['a block of a rank-3 tensor', [6, 7, 8], [1, 2, 3], [3, 4, 5]],
    ['one replica slab (contiguous, a view)', [10, 15, 8], [3, 0, 0], [1, 15, 8]],
    ['the last flavour of every point', [10, 15, 8], [0, 0, 7], [10, 15, 1]],
  ])('should slice %s like the cpu backend', async (_, shape, begin, size) => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.slice(randomTensor(shape, 9), begin, size),
    );
    expect(native.shape).toEqual(cpu.shape);
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });

  it('should give the gradient of a strided slice like the cpu backend', async () => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.grad((x: tf.Tensor) => tf.sum(tf.square(tf.slice(x, [0, 2], [6, 3]))))(
        randomTensor([6, 8], 10),
      ),
    );
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });
});

describe.skipIf(!nativeAvailable)('Split, Unpack, Pack and Pad on native', () => {
  it.each([
    ['along the first axis (views)', [12, 5, 4], [3, 4, 5], 0],
    ['along the middle axis', [6, 12, 4], [5, 7], 1],
    ['along the last axis into equal pieces', [6, 5, 12], 4, 2],
  ])('should split %s like the cpu backend', async (_, shape, sizes, axis) => {
    for (const piece of [0, 1]) {
      const { cpu, native } = await onCpuAndNative(
        () => tf.split(randomTensor(shape, 20), sizes, axis)[piece],
      );
      expect(native.shape).toEqual(cpu.shape);
      expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
    }
  });

  it.each([0, 1, 2])('should unstack along axis %s like the cpu backend', async (axis) => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.stack(tf.unstack(randomTensor([3, 4, 5], 21), axis).reverse(), axis),
    );
    expect(native.shape).toEqual(cpu.shape);
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });

  it.each([0, 1, 2])('should stack along axis %s like the cpu backend', async (axis) => {
    const { cpu, native } = await onCpuAndNative(() =>
      tf.stack(
        [randomTensor([4, 5], 22), randomTensor([4, 5], 23), randomTensor([4, 5], 24)],
        axis,
      ),
    );
    expect(native.shape).toEqual(cpu.shape);
    expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
  });

  it.each([
    [
      'every axis',
      [
        [1, 2],
        [0, 3],
        [2, 0],
      ],
      0,
    ],
    [
      'only the first axis, with a constant',
      [
        [2, 1],
        [0, 0],
        [0, 0],
      ],
      1.5,
    ],
    [
      'only the last axis',
      [
        [0, 0],
        [0, 0],
        [3, 1],
      ],
      -2,
    ],
  ] as [string, [number, number][], number][])(
    'should pad %s like the cpu backend',
    async (_, paddings, constant) => {
      const { cpu, native } = await onCpuAndNative(() =>
        tf.pad(randomTensor([3, 4, 5], 25), paddings, constant),
      );
      expect(native.shape).toEqual(cpu.shape);
      expect(Array.from(native.values)).toEqual(Array.from(cpu.values));
    },
  );

  it('should pad int32 tensors with an integer constant', async () => {
    const native = await runOn('native', () => tf.pad(tf.tensor1d([1, 2], 'int32'), [[1, 2]], 7));
    expect([native.dtype, Array.from(native.values)]).toEqual(['int32', [7, 1, 2, 7, 7]]);
  });
});
