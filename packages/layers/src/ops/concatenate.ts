import * as tf from '@tensorflow/tfjs-core';
import { withCustomGrad } from './custom-grad.js';

/**
 * `tf.concat(tensors, axis)` whose gradient splits the upstream gradient by the sizes known in
 * the forward pass. tfjs's own `Concat` gradient keeps a clone of every input only to read its
 * shape: one kernel per input in every step (43 for the `nnpdf40` bench's datasets). The values
 * and gradients are the same.
 *
 * @param tensors - tensors of equal rank, equal but for `axis`
 * @param axis - the axis to join along (negative counts from the end)
 */
export function concatenate<T extends tf.Tensor>(tensors: readonly T[], axis: number): T {
  if (tensors.length === 1) return tensors[0];
  const rank = tensors[0].rank;
  const joined = axis < 0 ? axis + rank : axis;
  const sizes = tensors.map((tensor) => tensor.shape[joined]);
  const concatenation = withCustomGrad((inputs) => ({
    value: tf.concat(inputs, joined),
    gradFunc: (dy) => tf.split(dy, sizes, joined),
  }));
  return concatenation(...tensors) as T;
}
