import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { runKeepBestRows, runStoppingUpdate, STOPPING_UPDATE_OUTPUTS } from '@partonfit/backend';
import { nativeAvailable } from '../testing/native.fixture.js';

describe.skipIf(!nativeAvailable)('the fused stopping kernels on native', () => {
  it('should apply the stopping rule replica by replica', async () => {
    await tf.setBackend('native');
    // replica 0 improves by more than delta; 1 improves by less than delta and runs out of
    // patience; 2 is past its epochs (frozen); 3 diverges; 4 is below the χ² threshold only now;
    // 5 violates positivity
    const inputs = {
      training: tf.tensor1d([1, 1, 1, Number.NaN, 1, 1]),
      validation: tf.tensor1d([2, 2.95, 1, 1, 2, 1]),
      validationChi2PerPoint: tf.tensor1d([1, 1, 1, 1, 2.5, 1]),
      positivity: tf.tensor1d([0, 0, 0, 0, 0, 1]),
      bestValidation: tf.tensor1d([3, 3, 3, 3, Number.POSITIVE_INFINITY, 3]),
      bestEpoch: tf.tensor1d([4, 4, 4, 4, -1, 4]),
      stopEpoch: tf.tensor1d([-1, -1, -1, -1, -1, -1]),
      waiting: tf.tensor1d([1, 3, 1, 0, 0, 0]),
      counting: tf.tensor1d([1, 1, 1, 1, 0, 1]),
      failed: tf.tensor1d([0, 0, 0, 0, 0, 0]),
      patience: tf.tensor1d([3, 3, 3, 3, 3, 3]),
      epochLimit: tf.tensor1d([100, 100, 9, 100, 100, 100]),
    };
    const outputs = runStoppingUpdate(inputs, {
      epoch: 9,
      thresholdChi2: 3,
      positivityThreshold: 1e-6,
      delta: 0.1,
    });
    const state = Object.fromEntries(
      STOPPING_UPDATE_OUTPUTS.map((name, k) => [name, Array.from(outputs[k].dataSync())]),
    );
    expect(state).toEqual({
      bestValidation: [2, 3, 3, 3, 2, 3],
      bestEpoch: [9, 4, 4, 4, 9, 4],
      stopEpoch: [-1, 9, -1, 9, -1, -1],
      waiting: [0, 4, 1, 1, 0, 1],
      counting: [1, 1, 1, 1, 1, 1],
      failed: [0, 0, 0, 1, 0, 0],
      best: [1, 0, 0, 0, 1, 0],
    });
    const weight = tf.tensor2d([10, 11, 20, 21, 30, 31], [3, 2]);
    const snapshot = tf.tensor2d([0, 1, 2, 3, 4, 5], [3, 2]);
    const [kept] = runKeepBestRows(outputs[6], [{ weight, bestWeight: snapshot, start: 2 }]);
    // the weight holds replicas 2–4: only replica 4 (its third row) is a best epoch
    expect(Array.from(kept.dataSync())).toEqual([0, 1, 2, 3, 30, 31]);
    tf.dispose([...Object.values(inputs), ...outputs, weight, snapshot, kept]);
  });
});
