import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, SeededRandom, ShapeError } from '@partonfit/core';
import { expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { ReplicaStopping, type StoppingSettings } from './replica-stopping.js';

const SETTINGS: StoppingSettings = {
  replicas: 3,
  patience: 4,
  thresholdChi2: 3,
  positivityThreshold: 1e-6,
};

/** Noisy decreasing losses per epoch, (epochs) of (replicas) lists; replica 2 turns NaN at 25. */
function lossHistory(epochs: number): number[][] {
  const random = new SeededRandom(5);
  return Array.from({ length: epochs }, (_, epoch) =>
    [0, 1, 2].map((r) =>
      r === 2 && epoch >= 25 ? Number.NaN : 4 * Math.exp(-epoch / (6 + 5 * r)) + random.uniform(),
    ),
  );
}

/** Runs epochs `from` to `to` (exclusive): the weight holds the epoch number, then an update. */
function run(
  stopping: ReplicaStopping,
  weight: tf.Variable,
  history: number[][],
  from: number,
  to: number,
): void {
  for (let epoch = from; epoch < to; epoch++) {
    const value = tf.fill([3, 2], epoch);
    weight.assign(value);
    value.dispose();
    const losses = tf.tensor1d(history[epoch]);
    const positivity = tf.zeros<tf.Rank.R1>([3]);
    stopping.update(epoch, {
      training: losses,
      validation: losses,
      validationChi2PerPoint: losses,
      positivity,
    });
    tf.dispose([losses, positivity]);
  }
}

describeOnBackends('ReplicaStopping state and restore', () => {
  it('should continue from a state exactly as without the interruption', async () => {
    const history = lossHistory(40);
    const weight = tf.variable(tf.zeros([3, 2]));
    const through = new ReplicaStopping(SETTINGS, [weight]);
    run(through, weight, history, 0, 40);
    const expected = await through.snapshot();
    through.restoreBestWeights();
    const expectedWeights = await weight.data();
    through.dispose();

    const before = tf.memory().numTensors;
    const first = new ReplicaStopping(SETTINGS, [weight]);
    run(first, weight, history, 0, 20);
    const state = first.state();
    first.dispose();
    const second = new ReplicaStopping(SETTINGS, [weight]);
    second.restore(state);
    tf.dispose([...Object.values(state).filter((value) => value instanceof tf.Tensor)]);
    tf.dispose([...state.bestWeights]);
    run(second, weight, history, 20, 40);
    expect(await second.snapshot()).toEqual(expected);
    second.restoreBestWeights();
    expect(await weight.data()).toEqual(expectedWeights);
    // The interruption fell inside the run: best epochs on both sides, a NaN replica after it.
    expect(Array.from(expected.bestEpoch).some((epoch) => epoch >= 0 && epoch < 20)).toBe(true);
    expect(Array.from(expected.stopEpoch).some((epoch) => epoch >= 20)).toBe(true);
    expect(expected.failed[2]).toBe(1);
    second.dispose();
    expect(tf.memory().numTensors).toBe(before);
    weight.dispose();
  });

  it('should refuse a state of other replicas or other weights', () => {
    const weight = tf.variable(tf.zeros([3, 2]));
    const stopping = new ReplicaStopping(SETTINGS, [weight]);
    const state = stopping.state();
    const fewer = tf.zeros<tf.Rank.R1>([2]);
    expect(() => {
      stopping.restore({ ...state, waiting: fewer });
    }).toThrow(ShapeError);
    expect(() => {
      stopping.restore({ ...state, bestWeights: [] });
    }).toThrow(InvalidArgumentError);
    const wide = tf.zeros([3, 4]);
    expect(() => {
      stopping.restore({ ...state, bestWeights: [wide] });
    }).toThrow('expected shape [3, 2], got [3, 4]');
    const integers = tf.zeros<tf.Rank.R1>([3], 'int32');
    expect(() => {
      stopping.restore({ ...state, failed: integers });
    }).toThrow('expected a float32 tensor, got int32');
    tf.dispose([fewer, wide, integers, ...state.bestWeights]);
    tf.dispose([state.bestValidation, state.bestEpoch, state.stopEpoch]);
    tf.dispose([state.waiting, state.counting, state.failed]);
    stopping.dispose();
    weight.dispose();
  });
});
