import * as tf from '@tensorflow/tfjs-core';
import { ADAM_FAMILY_UPDATE_KERNEL } from '@partonfit/backend';
import { expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { expectClose, randomArray, values } from './optimizers.fixture.js';
import { createReplicaOptimizer } from './replica-optimizer.js';

const REPLICAS = 4;
const SHAPES = [
  [REPLICAS, 2, 25],
  [REPLICAS, 1, 25],
  [REPLICAS, 25, 20],
] as const;
const STEPS = 30;
/** Adam and Nadam rows with their own learning rates and clipnorms, one small enough to clip. */
const PLAN = {
  replicas: [
    { name: 'Nadam', learningRate: 2.621e-3, clipnorm: 6.073e-6 },
    { name: 'Adam', learningRate: 1e-2, clipnorm: 0.5 },
    { name: 'Nadam', learningRate: 5e-4, clipnorm: 1 },
    { name: 'Adam', learningRate: 3e-3, clipnorm: 6.073e-6 },
  ],
} as const;

/** The weights after {@link STEPS} updates on the active backend, with row 2 paused at step 10. */
function train(): Float64Array[] {
  const variables = SHAPES.map((shape, index) =>
    tf.variable(
      tf.tensor(Float32Array.from(randomArray(shape[0] * shape[1] * shape[2], index + 1)), [
        ...shape,
      ]),
    ),
  );
  const optimizer = createReplicaOptimizer(PLAN);
  for (let step = 1; step <= STEPS; step++) {
    tf.tidy(() => {
      const gradients = SHAPES.map((shape, index) =>
        tf.tensor(
          Float32Array.from(randomArray(shape[0] * shape[1] * shape[2], 100 * step + index, -2, 2)),
          [...shape],
        ),
      );
      const active = tf.tensor1d([1, 1, step === 10 ? 0 : 1, 1]);
      optimizer.applyGradients(variables, gradients, { active });
    });
  }
  const weights = variables.map(values);
  optimizer.dispose();
  tf.dispose(variables);
  return weights;
}

describeOnBackends(
  'the fused Adam-family kernel',
  () => {
    it('should update every variable in one kernel, as the tensor formulation does on cpu', async () => {
      const variables = SHAPES.map((shape) => tf.variable(tf.zeros([...shape])));
      const optimizer = createReplicaOptimizer(PLAN);
      const profile = await tf.profile(() => {
        tf.tidy(() => {
          optimizer.applyGradients(
            variables,
            SHAPES.map((shape) => tf.ones([...shape])),
          );
        });
      });
      const fused = profile.kernels.filter((kernel) => kernel.name === ADAM_FAMILY_UPDATE_KERNEL);
      expect(fused.length).toBe(SHAPES.length);
      optimizer.dispose();
      tf.dispose(variables);

      const native = train();
      await tf.setBackend('cpu');
      const cpu = train();
      await tf.setBackend('native');
      // only the order of the clipping norm's sum differs: float32 rounding, not the formula
      native.forEach((weights, index) => {
        expectClose(weights, cpu[index], 1e-6, `variable ${index}`);
      });
    });
  },
  ['native'],
);
