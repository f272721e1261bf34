import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { KerasReference, type ReferenceSettings } from './keras-reference.fixture.js';
import {
  caseLabel,
  Deviations,
  OPTIMIZER_CASES,
  randomArray,
  sizeOf,
  values,
} from './optimizers.fixture.js';
import { createReplicaOptimizer } from './replica-optimizer.js';

/** Variables of ranks 3, 3, 2 and 1, three replicas each. */
const SHAPES = [[3, 2, 4], [3, 1, 4], [3, 5], [3]] as const;
/** Per-replica gradient scales: replica 0 is never clipped at clipnorm 1, replica 2 always. */
const REPLICA_SCALES = [0.2, 1, 4];
const STEPS = 8;
/** Float32 rounding over a few steps, relative to the largest value compared. */
const TOLERANCE = 2e-6;

/**
 * Random gradients of step `step`, rounded to float32 so that tensors and loops see the same
 * numbers; small after step 4 so that second moments shrink (Amsgrad's maximum, Adamax's norm).
 */
function gradientsAt(step: number): Float64Array[] {
  const late = step > 4 ? 0.05 : 1;
  return SHAPES.map((shape, index) => {
    const gradient = randomArray(sizeOf(shape), 1000 * step + index);
    const per = gradient.length / 3;
    return gradient.map((value, at) =>
      Math.fround(value * late * (REPLICA_SCALES[Math.floor(at / per)] ?? 1)),
    );
  });
}

function initialWeights(): Float64Array[] {
  return SHAPES.map((shape, index) =>
    randomArray(sizeOf(shape), 10 + index).map((value) => Math.fround(value)),
  );
}

/**
 * Runs the optimiser and the reference side by side; the worst deviation of the weights after
 * every step and of the statistics at the end.
 */
function compareWithReference(settings: ReferenceSettings): Deviations {
  const deviations = new Deviations();
  const reference = new KerasReference(settings, SHAPES);
  const expected = initialWeights();
  const variables = initialWeights().map((weights, index) =>
    tf.variable(tf.tensor(Float32Array.from(weights), [...(SHAPES[index] ?? [])])),
  );
  const optimizer = createReplicaOptimizer(settings);
  for (let step = 1; step <= STEPS; step++) {
    const gradients = gradientsAt(step);
    const gradientTensors = gradients.map((gradient, index) =>
      tf.tensor(Float32Array.from(gradient), [...(SHAPES[index] ?? [])]),
    );
    optimizer.applyGradients(variables, gradientTensors);
    tf.dispose(gradientTensors);
    reference.update(expected, gradients);
    variables.forEach((variable, index) => {
      deviations.compare(values(variable), expected[index] ?? [], `step ${step}, w${index}`);
    });
  }
  const state = optimizer.state();
  deviations.compare([optimizer.step], [STEPS], 'step count');
  deviations.compare(
    [Object.keys(state.slots).length],
    [Object.keys(reference.slots).length],
    'slot count',
  );
  for (const [name, tensors] of Object.entries(state.slots)) {
    tensors.forEach((tensor, index) => {
      deviations.compare(values(tensor), reference.slots[name][index], `${name}[${index}]`);
    });
    tf.dispose([...tensors]);
  }
  optimizer.dispose();
  tf.dispose(variables);
  return deviations;
}

describeOnBackends('createReplicaOptimizer: Keras 3 update formulas', () => {
  for (const settings of OPTIMIZER_CASES) {
    it(`should update like a float64 loop of ${caseLabel(settings)}, clipped per replica`, () => {
      const deviations = compareWithReference(settings);
      expect(deviations.beyond(TOLERANCE)).toEqual([]);
    });
  }

  it('should leave gradients as they are without clipnorm', () => {
    for (const name of ['Adam', 'SGD'] as const) {
      const deviations = compareWithReference({ name, learningRate: 0.01, clipnorm: undefined });
      expect(deviations.beyond(TOLERANCE)).toEqual([]);
    }
  });
});

describe('the test data', () => {
  it("should shrink second moments, so that Amsgrad's maximum differs from Adam's velocity", () => {
    const reference = new KerasReference(
      { name: 'Amsgrad', learningRate: 0.01, clipnorm: 1 },
      SHAPES,
    );
    const weights = initialWeights();
    for (let step = 1; step <= STEPS; step++) reference.update(weights, gradientsAt(step));
    const velocity = reference.slots.velocity;
    const maximum = reference.slots.velocity_hat;
    const largest = Math.max(...maximum.flatMap((slot) => Array.from(slot)));
    const difference = Math.max(
      ...maximum.flatMap((slot, index) =>
        Array.from(slot, (value, at) => value - (velocity[index]?.[at] ?? 0)),
      ),
    );
    expect(difference / largest).toBeGreaterThan(100 * TOLERANCE);
  });
});
