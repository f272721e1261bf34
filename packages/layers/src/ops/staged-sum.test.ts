import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@partonfit/core';
import { expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { expectClose, randomArray, tensorGrowth, toFloat32, values } from './numeric.fixture.js';
import { stagedSum } from './staged-sum.js';

describeOnBackends('stagedSum', () => {
  it('should sum the last axis of a large tensor to float32 accuracy', () => {
    const rows = 3;
    const terms = 300_001;
    const data = toFloat32(randomArray(rows * terms, 11, 0, 1));
    const expected = new Float64Array(rows);
    for (let i = 0; i < rows * terms; i++) expected[Math.floor(i / terms)] += data[i];
    tf.tidy(() => {
      const sums = stagedSum(tf.tensor2d(data, [rows, terms]));
      expect(sums.shape).toEqual([rows]);
      expectClose(values(sums), expected, 2e-6);
    });
  });

  it('should sum a short axis and a rank-3 tensor like tf.sum, with the gradient of a sum', () => {
    const data = toFloat32(randomArray(2 * 3 * 200, 12));
    tf.tidy(() => {
      const x = tf.tensor3d(data, [2, 3, 200]);
      const expected = values(tf.sum(x, -1));
      expect(stagedSum(x).shape).toEqual([2, 3]);
      expectClose(values(stagedSum(x)), expected, 1e-5);
      expectClose(
        values(stagedSum(tf.slice(x, [0, 0, 0], [2, 3, 5]))),
        values(tf.sum(tf.slice(x, [0, 0, 0], [2, 3, 5]), -1)),
      );
      const weights = tf.tensor2d([1, 2, 3, 4, 5, 6], [2, 3]);
      const gradient = tf.grad((input: tf.Tensor) => tf.sum(tf.mul(stagedSum(input, 7), weights)))(
        x,
      );
      const expectedGradient = Float64Array.from(
        { length: 1200 },
        (_, i) => Math.floor(i / 200) + 1,
      );
      expectClose(values(gradient), expectedGradient, 0);
    });
  });

  it('should reject a chunk smaller than two and a scalar', () => {
    const x = tf.zeros([4]);
    expect(() => stagedSum(x, 1)).toThrow(InvalidArgumentError);
    expect(() => stagedSum(tf.scalar(1))).toThrow(InvalidArgumentError);
    x.dispose();
  });

  it('should not leak tensors', () => {
    const x = tf.ones([2, 1000]);
    expect(
      tensorGrowth(() => {
        tf.tidy(() => {
          tf.grad((input: tf.Tensor) => tf.sum(stagedSum(input)))(x);
        });
      }),
    ).toBe(0);
    x.dispose();
  });
});
