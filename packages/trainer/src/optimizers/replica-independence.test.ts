import * as tf from '@tensorflow/tfjs-core';
import { expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import type { ReferenceSettings } from './keras-reference.fixture.js';
import {
  caseLabel,
  Deviations,
  OPTIMIZER_CASES,
  randomArray,
  replicaSlice,
  values,
} from './optimizers.fixture.js';
import { createReplicaOptimizer } from './replica-optimizer.js';

const REPLICAS = 4;
const POINTS = 6;
const INPUTS = 3;
const OUTPUTS = 2;
const STEPS = 20;
/** Small enough that every replica's gradients are clipped, by different factors. */
const CLIPNORM = 0.05;

/** The shared input `(points, inputs)` and per-replica targets and starting weights. */
const inputs = Float32Array.from(randomArray(POINTS * INPUTS, 1));
const targets = Float32Array.from(
  randomArray(REPLICAS * POINTS * OUTPUTS, 2).map(
    (value, at) => value * 2 ** Math.floor(at / (POINTS * OUTPUTS)),
  ),
);
const kernels = Float32Array.from(randomArray(REPLICAS * INPUTS * OUTPUTS, 3));
const biases = Float32Array.from(randomArray(REPLICAS * OUTPUTS, 4));

/** The replicas `[first, first + count)` of a replica-first array. */
function replicasOf(array: Float32Array, first: number, count: number): Float32Array {
  const per = array.length / REPLICAS;
  return array.slice(first * per, (first + count) * per);
}

/**
 * Σ_r Σ (x·W_r + b_r − y_r)²: a least-squares fit per replica, `(1, points, inputs)` times
 * `(replicas, inputs, outputs)`.
 */
function loss(variables: readonly tf.Variable[], target: tf.Tensor): tf.Scalar {
  const [kernel, bias] = variables as [tf.Variable, tf.Variable];
  const input = tf.tensor3d(inputs, [1, POINTS, INPUTS]);
  const predictions = tf.add(tf.matMul(input, kernel), bias);
  return tf.sum(tf.square(tf.sub(predictions, target)));
}

/** The gradients `[kernel, bias]` of {@link loss}, in the variables' order. */
function gradientsOf(variables: readonly tf.Variable[], target: tf.Tensor): tf.Tensor[] {
  const { value, grads } = tf.variableGrads(() => loss(variables, target), [...variables]);
  value.dispose();
  return variables.map((variable) => grads[variable.name]);
}

/** Trains replicas `[first, first + count)` together; returns `[kernel, bias]` after each step. */
function train(settings: ReferenceSettings, first: number, count: number): Float64Array[][] {
  const variables = [
    tf.variable(tf.tensor3d(replicasOf(kernels, first, count), [count, INPUTS, OUTPUTS])),
    tf.variable(tf.tensor3d(replicasOf(biases, first, count), [count, 1, OUTPUTS])),
  ];
  const target = tf.tensor3d(replicasOf(targets, first, count), [count, POINTS, OUTPUTS]);
  const optimizer = createReplicaOptimizer({ ...settings, clipnorm: CLIPNORM });
  const history: Float64Array[][] = [];
  for (let step = 0; step < STEPS; step++) {
    tf.tidy(() => {
      optimizer.applyGradients(variables, gradientsOf(variables, target));
    });
    history.push(variables.map(values));
  }
  optimizer.dispose();
  tf.dispose([...variables, target]);
  return history;
}

describeOnBackends('createReplicaOptimizer: replica independence', () => {
  it('should start from gradients every replica clips, each by a different factor', () => {
    const variables = [
      tf.variable(tf.tensor3d(kernels, [REPLICAS, INPUTS, OUTPUTS])),
      tf.variable(tf.tensor3d(biases, [REPLICAS, 1, OUTPUTS])),
    ];
    const target = tf.tensor3d(targets, [REPLICAS, POINTS, OUTPUTS]);
    const norms = tf.tidy(() =>
      gradientsOf(variables, target).map((gradient) =>
        Array.from({ length: REPLICAS }, (_, replica) =>
          Math.hypot(...replicaSlice(values(gradient), REPLICAS, replica)),
        ),
      ),
    );
    for (const variableNorms of norms) {
      expect(Math.min(...variableNorms)).toBeGreaterThan(2 * CLIPNORM);
      expect(Math.max(...variableNorms) / Math.min(...variableNorms)).toBeGreaterThan(2);
    }
    tf.dispose([...variables, target]);
  });

  for (const settings of OPTIMIZER_CASES) {
    it(`should train ${REPLICAS} replicas of ${caseLabel(settings)} together exactly as ${REPLICAS} single-replica runs`, () => {
      const deviations = new Deviations();
      const together = train(settings, 0, REPLICAS);
      for (let replica = 0; replica < REPLICAS; replica++) {
        const alone = train(settings, replica, 1);
        alone.forEach((weights, step) => {
          weights.forEach((single, index) => {
            const joint = replicaSlice(
              together[step]?.[index] ?? new Float64Array(),
              REPLICAS,
              replica,
            );
            deviations.compare(joint, single, `replica ${replica}, step ${step + 1}, w${index}`);
          });
        });
      }
      expect(deviations.beyond(1e-6)).toEqual([]);
    });
  }
});
