import * as tf from '@tensorflow/tfjs-core';

/**
 * One forward + backward pass: the gradient of Σ forward() ⊙ upstream with respect to
 * `variables` (a fixed random upstream gradient, so the backward is the step's own), all freed.
 */
export function forwardBackward(
  forward: () => tf.Tensor,
  upstream: tf.Tensor,
  variables: readonly tf.Variable[],
): void {
  tf.tidy(() => {
    tf.variableGrads(() => tf.sum<tf.Scalar>(tf.mul(forward(), upstream)), [...variables]);
  });
}

/**
 * A trainable variable holding `values` (a stand-in for the input a component differentiates);
 * takes ownership of `values` (disposes it: the variable keeps the data).
 */
export function inputVariable(values: tf.Tensor): tf.Variable {
  const variable = tf.variable(values, true);
  values.dispose();
  return variable;
}

/** Seeded uniform values in [low, high) of a shape, for inputs and upstream gradients. */
export function seededUniform(shape: number[], low: number, high: number, seed: number): tf.Tensor {
  return tf.randomUniform(shape, low, high, 'float32', seed);
}
