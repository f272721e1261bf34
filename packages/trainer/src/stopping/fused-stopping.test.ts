import * as tf from '@tensorflow/tfjs-core';
import { KEEP_BEST_ROWS_KERNEL, STOPPING_UPDATE_KERNEL } from '@partonfit/backend';
import { expect, it } from 'vitest';
import { describeOnBackends, registeredKernelsOf } from '@partonfit/testing';
import { ReplicaStopping } from './replica-stopping.js';

describeOnBackends(
  'ReplicaStopping on the fused kernels',
  () => {
    it('should update the state and snapshot every weight in two kernels', async () => {
      const weights = [tf.variable(tf.ones([3, 2, 4])), tf.variable(tf.ones([2, 5]))];
      const stopping = new ReplicaStopping(
        { replicas: 3, patience: 2, thresholdChi2: 10, positivityThreshold: 1e-6 },
        weights,
        [
          [0, 3],
          [1, 3],
        ],
      );
      const losses = {
        training: tf.tensor1d([1, 2, 3]),
        validation: tf.tensor1d([1, 2, 3]),
        validationChi2PerPoint: tf.tensor1d([1, 1, 1]),
        positivity: tf.tensor1d([0, 0, 0]),
      };
      // the first update makes the per-replica patience and epoch limits once, inside a step's
      // tidy as the trainer runs it: they must outlive it
      tf.tidy(() => {
        stopping.update(0, losses);
      });
      const kernels = await registeredKernelsOf(() => {
        stopping.update(1, losses);
      });
      expect(kernels).toEqual([STOPPING_UPDATE_KERNEL, KEEP_BEST_ROWS_KERNEL]);
      // epoch 1 did not improve on epoch 0's losses: the best epochs stay at 0
      expect((await stopping.snapshot()).bestEpoch).toEqual(Int32Array.from([0, 0, 0]));
      stopping.dispose();
      tf.dispose([...weights, ...Object.values(losses)]);
    });
  },
  ['native'],
);
