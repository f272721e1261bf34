import * as tf from '@tensorflow/tfjs-core';
import { SeededRandom } from '@partonfit/core';
import { expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { ReplicaStopping, type StoppingSettings } from './replica-stopping.js';

/**
 * Upstream's rules, one replica at a time, in plain JavaScript; a replica with its own epochs
 * sees only the first of them, as a fit of its own would.
 */
function referenceStopping(settings: StoppingSettings, history: number[][][]) {
  const { replicas, patience, thresholdChi2, positivityThreshold, delta = 0, epochs } = settings;
  return Array.from({ length: replicas }, (_, r) => {
    const ownPatience = typeof patience === 'number' ? patience : (patience[r] ?? 0);
    const ownHistory = history.slice(0, epochs?.[r] ?? history.length);
    let best = Infinity;
    let bestEpoch = -1;
    let stopEpoch = -1;
    let waiting = 0;
    let counting = 0;
    let failed = 0;
    ownHistory.forEach(([training, validation, chi2, positivity], epoch) => {
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
      if (waiting > ownPatience) stopEpoch = epoch;
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

  it('should give each replica its own patience and epochs, as fits of their own', async () => {
    const own: StoppingSettings = { ...settings, patience: [2, 5, 5, 1], epochs: [40, 14, 40, 25] };
    const weight = tf.variable(tf.zeros([4, 3]));
    const stopping = new ReplicaStopping(own, [weight]);
    const active: number[][] = [];
    history.forEach(([training, validation, chi2, positivity], epoch) => {
      const tensors = [training, validation, chi2, positivity].map((values) => tf.tensor1d(values));
      stopping.update(epoch, {
        training: tensors[0],
        validation: tensors[1],
        validationChi2PerPoint: tensors[2],
        positivity: tensors[3],
      });
      const mask = stopping.activeReplicas(epoch);
      active.push(Array.from(mask.dataSync()));
      tf.dispose([...tensors, mask]);
    });
    const snapshot = await stopping.snapshot();
    const expected = referenceStopping(own, history);
    expected.forEach(({ bestEpoch, stopEpoch, failed }, r) => {
      expect([snapshot.bestEpoch[r], snapshot.stopEpoch[r], snapshot.failed[r]]).toEqual([
        bestEpoch,
        stopEpoch,
        failed,
      ]);
    });
    // replica 1 ends at its 14th epoch without stopping: frozen from then on, never failed
    expect(expected[1].stopEpoch).toBe(-1);
    expect(active.map((row) => row[1])).toEqual(history.map((_, epoch) => (epoch < 14 ? 1 : 0)));
    // the shorter patience stops replica 0 earlier than with the shared 5
    expect(expected[0].stopEpoch).toBeLessThan(referenceStopping(settings, history)[0].stopEpoch);
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
    expect(() => new ReplicaStopping(settings, [weight])).toThrow(
      'expected its replicas [0, 4) of 4 first',
    );
    // a network group's weight holds some of the replicas: its rows say which
    const group = tf.variable(tf.zeros([2, 5]));
    expect(() => new ReplicaStopping(settings, [group], [[2, 4]])).not.toThrow();
    expect(() => new ReplicaStopping(settings, [group], [[3, 5]])).toThrow(
      'expected its replicas [3, 5) of 4 first',
    );
    expect(() => new ReplicaStopping({ ...settings, patience: [1, 2] }, [])).toThrow(
      'patience: expected one per replica (4), got 2',
    );
    tf.dispose([weight, group]);
  });
});
