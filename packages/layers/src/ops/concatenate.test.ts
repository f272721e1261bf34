import * as tf from '@tensorflow/tfjs-core';
import { describeOnBackends, registeredKernelsOf } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { concatenate } from './concatenate.js';

describeOnBackends('concatenate', () => {
  const parts = () => [
    tf.tensor2d([1, 2, 3, 4], [2, 2]),
    tf.tensor2d([5, 6, 7, 8, 9, 10], [2, 3]),
    tf.tensor2d([11, 12], [2, 1]),
  ];
  const weights = tf.tensor2d([1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12], [2, 6]);

  it('should give the values and gradients of tf.concat', () => {
    for (const axis of [1, -1]) {
      const ours = tf.grads((a, b, c) => tf.sum(tf.mul(concatenate([a, b, c], axis), weights)));
      const theirs = tf.grads((a, b, c) => tf.sum(tf.mul(tf.concat([a, b, c], axis), weights)));
      const inputs = parts();
      expect(concatenate(inputs, axis).arraySync()).toEqual(tf.concat(inputs, axis).arraySync());
      const expected = theirs(inputs).map((grad) => grad.arraySync());
      expect(ours(inputs).map((grad) => grad.arraySync())).toEqual(expected);
      expect(expected[2]).toEqual([[-6], [-12]]);
    }
  });

  it('should keep no clone of its inputs for the gradient', async () => {
    const inputs = parts();
    const clones = async (join: (tensors: tf.Tensor[]) => tf.Tensor) =>
      (
        await registeredKernelsOf(() => {
          tf.grads((a, b, c) => tf.sum(join([a, b, c])))(inputs);
        })
      ).filter((name) => name === 'Identity').length;
    const theirs = await clones((tensors) => tf.concat(tensors, 1));
    const ours = await clones((tensors) => concatenate(tensors, 1));
    expect(theirs - ours).toBe(3);
  });

  it('should return a single tensor as it is', () => {
    const [only] = parts();
    expect(concatenate([only], 0)).toBe(only);
  });
});
