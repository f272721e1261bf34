import * as tf from '@tensorflow/tfjs-core';

/** The forward result of a custom-gradient function: its value and its backward. */
export interface CustomGradResult {
  /** The forward value. */
  readonly value: tf.Tensor;
  /**
   * The gradient with respect to each input, given the upstream gradient `dy` and the tensors
   * saved in the forward pass.
   */
  readonly gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.Tensor | tf.Tensor[];
}

/**
 * `tf.customGrad` with typed inputs: `forward(inputs, save)` receives the input tensors as an
 * array and `save`, which keeps tensors the backward needs (intermediates created in the forward
 * are disposed before the backward runs unless saved).
 *
 * The backward runs in its own `tf.tidy`: tfjs frees the intermediates of a backward pass only
 * when the whole gradient is done, so without it every custom gradient's temporaries (an FK
 * table's luminosity gradient, say) would stay allocated until the last one has run.
 */
export function withCustomGrad(
  forward: (inputs: tf.Tensor[], save: tf.GradSaveFunc) => CustomGradResult,
): (...inputs: tf.Tensor[]) => tf.Tensor {
  return tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const save = args[args.length - 1] as tf.GradSaveFunc;
    const result = forward(args.slice(0, -1) as tf.Tensor[], save);
    return {
      value: result.value,
      gradFunc: (dy, saved) => tf.tidy(() => result.gradFunc(dy, saved)),
    };
  });
}
