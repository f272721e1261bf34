import * as tf from '@tensorflow/tfjs-core';
import { SeededRandom } from '@partonfit/core';
import { expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { ReplicaStopping, type StoppingSettings } from './replica-stopping.js';

/** Upstream's rules, one replica at a time, in plain JavaScript. */
function referenceStopping(settings: StoppingSettings, history: number[][][]) {
  const { replicas, patience, thresholdChi2, positivityThreshold, delta = 0 } = settings;
  return Array.from({ length: replicas }, (_, r) => {
    let best = Infinity;
    let bestEpoch = -1;
    let stopEpoch = -1;
    let waiting = 0;
    let counting = 0;
    let failed = 0;
    history.forEach(([training, validation, chi2, positivity], epoch) => {
      if (stopEpoch >= 0) return;
      if (!Number.isFinite(training[r]) || !Number.isFinite(validation[r])) {
        stopEpoch = epoch;
        failed = 1;
        return;
      }
      const isBest =
        (counting > 0 || chi2[r] < thresholdChi2) &&
        validation[r] < best - delta &&
        positivity[r] < positivityThreshold;
      if (isBest) {
        best = validation[r];
        bestEpoch = epoch;
        counting = 1;
        waiting = 0;
      } else {
        waiting += counting;
      }
      if (waiting > patience) stopEpoch = epoch;
    });
    return { best, bestEpoch, stopEpoch, failed };
  });
}

describeOnBackends('ReplicaStopping', () => {
  const settings: StoppingSettings = {
    replicas: 4,
    patience: 5,
    thresholdChi2: 3,
    positivityThreshold: 1e-6,
  };
  const random = new SeededRandom(17);
  // Noisy decreasing validation losses; replica 2 never goes below the χ² threshold, replica 3's
  // training loss turns NaN at epoch 12, replica 2's validation loss Infinity at epoch 30,
  // replica 1 violates positivity early on.
  const history = Array.from({ length: 40 }, (_, epoch) => {
    const validation = [0, 1, 2, 3].map(
      (r) => 5 * Math.exp(-epoch / (8 + 4 * r)) + random.uniform(),
    );
    const chi2 = validation.map((value, r) => (r === 2 ? 10 + value : value));
    const training = validation.map((value, r) => (r === 3 && epoch >= 12 ? Number.NaN : value));
    if (epoch >= 30) validation[2] = Number.POSITIVE_INFINITY;
    const positivity = [0, epoch < 10 ? 1 : 0, 0, 0];
    return [training, validation, chi2, positivity];
  });

  it('should follow upstream’s rules for each replica, on the device', async () => {
    const weight = tf.variable(tf.zeros([4, 2, 3]));
    const stopping = new ReplicaStopping(settings, [weight]);
    history.forEach(([training, validation, chi2, positivity], epoch) => {
      weight.assign(tf.fill([4, 2, 3], epoch));
      const tensors = [training, validation, chi2, positivity].map((values) => tf.tensor1d(values));
      stopping.update(epoch, {
        training: tensors[0],
        validation: tensors[1],
        validationChi2PerPoint: tensors[2],
        positivity: tensors[3],
      });
      tf.dispose(tensors);
    });
    const snapshot = await stopping.snapshot();
    const expected = referenceStopping(settings, history);
    expected.forEach(({ best, bestEpoch, stopEpoch, failed }, r) => {
      expect(snapshot.bestEpoch[r]).toBe(bestEpoch);
      expect(snapshot.stopEpoch[r]).toBe(stopEpoch);
      expect(snapshot.failed[r]).toBe(failed);
      expect(snapshot.bestValidation[r]).toBeCloseTo(bestEpoch >= 0 ? best : Infinity, 5);
    });
    expect(expected[2].bestEpoch).toBe(-1);
    expect(expected[3].failed).toBe(1);
    expect(expected[2]).toMatchObject({ failed: 1, stopEpoch: 30 });
    expect(expected[0].stopEpoch).toBeGreaterThan(0);
    stopping.restoreBestWeights();
    const restored = await weight.data();
    expected.forEach(({ bestEpoch }, r) => {
      // The weight was set to the epoch number: restoring gives back the best epoch's value.
      expect(restored[r * 6]).toBe(bestEpoch >= 0 ? bestEpoch : history.length - 1);
    });
    stopping.dispose();
    weight.dispose();
  });

  it('should not leak tensors per step, nor once disposed', () => {
    const weight = tf.variable(tf.zeros([4, 3]));
    const start = tf.memory().numTensors;
    new ReplicaStopping(settings, [weight]).dispose();
    expect(tf.memory().numTensors).toBe(start);
    const stopping = new ReplicaStopping(settings, [weight]);
    const losses = {
      training: tf.tensor1d([1, 2, 3, 4]),
      validation: tf.tensor1d([1, 2, 3, 4]),
      validationChi2PerPoint: tf.tensor1d([1, 2, 3, 4]),
      positivity: tf.zeros<tf.Rank.R1>([4]),
    };
    stopping.update(0, losses);
    const before = tf.memory().numTensors;
    for (let epoch = 1; epoch < 100; epoch++) stopping.update(epoch, losses);
    expect(tf.memory().numTensors).toBe(before);
    stopping.dispose();
    tf.dispose([weight, ...Object.values(losses)]);
  });

  it('should reject weights without the replica axis first', () => {
    const weight = tf.variable(tf.zeros([3, 4]));
    expect(() => new ReplicaStopping(settings, [weight])).toThrow('expected replicas (4) first');
    weight.dispose();
  });
});
