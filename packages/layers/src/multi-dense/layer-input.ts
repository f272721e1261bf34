import type * as tf from '@tensorflow/tfjs-core';
import type * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError } from '@partonfit/core';

/**
 * The one input tensor of a single-input layer, whether tfjs passes it alone or in a list.
 *
 * @throws InvalidArgumentError if a list does not hold exactly one tensor
 */
export function singleInput(inputs: tf.Tensor | tf.Tensor[], layer: string): tf.Tensor {
  if (!Array.isArray(inputs)) return inputs;
  const [input] = inputs;
  if (inputs.length !== 1) {
    throw new InvalidArgumentError({
      argument: `${layer} inputs`,
      problem: `expected one input tensor, got ${inputs.length}`,
    });
  }
  return input;
}

/** The one input shape of a single-input layer (tfjs may pass `[shape]`). */
export function singleShape(inputShape: tfl.Shape | tfl.Shape[] | readonly number[]): tfl.Shape {
  const first: unknown = inputShape[0];
  return (Array.isArray(first) ? first : inputShape) as tfl.Shape;
}
