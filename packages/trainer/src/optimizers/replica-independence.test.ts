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
function train(
  settings: ReferenceSettings,
  first: number,
  count: number,
  { steps = STEPS, own = false }: { steps?: number; own?: boolean } = {},
): Float64Array[][] {
  const variables = [
    tf.variable(tf.tensor3d(replicasOf(kernels, first, count), [count, INPUTS, OUTPUTS])),
    tf.variable(tf.tensor3d(replicasOf(biases, first, count), [count, 1, OUTPUTS])),
  ];
  const target = tf.tensor3d(replicasOf(targets, first, count), [count, POINTS, OUTPUTS]);
  // the cases' own clipnorm (1) would not clip: every case clips at CLIPNORM unless said
  const optimizer = createReplicaOptimizer({
    ...settings,
    clipnorm: own ? settings.clipnorm : CLIPNORM,
  });
  const history: Float64Array[][] = [];
  for (let step = 0; step < steps; step++) {
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

/** Each replica's own optimiser: two Nadams of other learning rates and clipnorms, Adam, RMSprop. */
const OWN_SETTINGS: readonly ReferenceSettings[] = [
  { name: 'Nadam', learningRate: 0.002, clipnorm: CLIPNORM },
  { name: 'Adam', learningRate: 0.01, clipnorm: 2 * CLIPNORM },
  { name: 'Nadam', learningRate: 0.0005, clipnorm: 0.5 * CLIPNORM },
  { name: 'RMSprop', learningRate: 0.01, clipnorm: CLIPNORM, momentum: 0.5 },
];

describeOnBackends('createReplicaOptimizer: replicas with their own optimisers', () => {
  it('should update each replica as its own optimiser alone, with kernels of some of the replicas', () => {
    // replicas 0–1 and 2–3 in kernels of their own (two network groups), one bias for all
    const variables = [
      tf.variable(tf.tensor3d(replicasOf(kernels, 0, 2), [2, INPUTS, OUTPUTS])),
      tf.variable(tf.tensor3d(replicasOf(kernels, 2, 2), [2, INPUTS, OUTPUTS])),
      tf.variable(tf.tensor3d(biases, [REPLICAS, 1, OUTPUTS])),
    ];
    const target = tf.tensor3d(targets, [REPLICAS, POINTS, OUTPUTS]);
    const optimizer = createReplicaOptimizer({
      replicas: OWN_SETTINGS,
      variableRows: [
        [0, 2],
        [2, 4],
        [0, 4],
      ],
    });
    // Adam and Nadam rows share one update (and one kernel here), RMSprop has its own
    expect(optimizer.name).toBe('Nadam+Adam+RMSprop');
    expect(optimizer.slotNames).toEqual([
      'Nadam+Adam_momentum',
      'Nadam+Adam_velocity',
      'RMSprop_velocity',
      'RMSprop_momentum',
    ]);
    const history: Float64Array[][] = [];
    for (let step = 0; step < STEPS; step++) {
      tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => {
          const input = tf.tensor3d(inputs, [1, POINTS, INPUTS]);
          const kernel = tf.concat([variables[0], variables[1]] as tf.Tensor3D[], 0);
          const predictions = tf.add(tf.matMul(input, kernel), variables[2]);
          return tf.sum(tf.square(tf.sub(predictions, target)));
        }, variables);
        value.dispose();
        // replica 3 is frozen after step 10, as a replica past its own epochs
        const active = step < 10 ? undefined : tf.tensor1d([1, 1, 1, 0]);
        optimizer.applyGradients(
          variables,
          variables.map((variable) => grads[variable.name]),
          active === undefined ? {} : { active },
        );
      });
      history.push([
        Float64Array.from([...values(variables[0]), ...values(variables[1])]),
        values(variables[2]),
      ]);
    }
    const deviations = new Deviations();
    OWN_SETTINGS.forEach((settings, replica) => {
      const alone = train(settings, replica, 1, { steps: replica === 3 ? 10 : STEPS, own: true });
      history.forEach((weights, step) => {
        const own = alone[Math.min(step, alone.length - 1)] ?? [];
        weights.forEach((joint, index) => {
          deviations.compare(
            replicaSlice(joint, REPLICAS, replica),
            own[index] ?? new Float64Array(),
            `replica ${replica}, step ${step + 1}, w${index}`,
          );
        });
      });
    });
    expect(deviations.beyond(0)).toEqual([]);
    optimizer.dispose();
    tf.dispose([...variables, target]);
  });

  it('should refuse a plan whose variable rows do not fit its replicas', () => {
    expect(() =>
      createReplicaOptimizer({ replicas: OWN_SETTINGS, variableRows: [[2, 5]] }),
    ).toThrow('variableRows[0]: expected rows [start, end) within the 4 replicas, got [2, 5)');
    const optimizer = createReplicaOptimizer({ replicas: OWN_SETTINGS, variableRows: [[0, 4]] });
    const two = [tf.variable(tf.zeros([4, 1])), tf.variable(tf.zeros([4, 1]))];
    expect(() => {
      optimizer.applyGradients(two, two);
    }).toThrow("the optimiser's plan gives the rows of 1 variables, got 2");
    tf.dispose(two);
    optimizer.dispose();
  });
});
