import * as tf from '@tensorflow/tfjs-core';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { selectSameShape, spreadReplicaMask } from './replica-mask.js';

describeOnBackends('replica masks', () => {
  it('should select per replica as tf.where does, with the Select kernel alone', async () => {
    const mask = spreadReplicaMask(tf.tensor2d([[1], [0], [1]]), [3, 2]);
    const a = tf.tensor2d([0.5, -1.25, 2, 3.5, Number.NaN, 7], [3, 2]);
    const b = tf.tensor2d([10, 20, 30, 40, 50, 60], [3, 2]);
    const expected = [0.5, -1.25, 30, 40, Number.NaN, 7];
    expect(Array.from(tf.where(mask, a, b).dataSync())).toEqual(expected);
    let selected: tf.Tensor | undefined;
    const profile = await tf.profile(() => {
      selected = selectSameShape(mask, a, b);
    });
    expect(profile.kernels.map((kernel) => kernel.name)).toEqual(['Select']);
    expect(Array.from(selected?.dataSync() ?? [])).toEqual(expected);
    // other shapes broadcast as tf.where does
    const row = selectSameShape<tf.Tensor>(
      tf.tensor1d([true, false], 'bool'),
      tf.tensor1d([1, 2]),
      b,
    );
    expect(Array.from(row.dataSync())).toEqual([1, 20, 1, 40, 1, 60]);
    tf.dispose([mask, a, b, row]);
    selected?.dispose();
  });
});
