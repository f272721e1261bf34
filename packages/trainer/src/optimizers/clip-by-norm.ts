import * as tf from '@tensorflow/tfjs-core';
import { scaleReplicaRows } from '../replica-mask/replica-mask.js';

/**
 * Keras's `clipnorm`, replica by replica: each replica's slice `g_r` of one gradient is
 * rescaled to `g_r · clipnorm / max(‖g_r‖₂, clipnorm)`, the norm taken over all axes but the
 * first. A slice whose norm is at most `clipnorm` (including an all-zero one) is unchanged;
 * one replica's norm never affects another's.
 *
 * This is Keras 3's formula (`BaseOptimizer._clip_by_norm`, and `tf.clip_by_norm` on the
 * TensorFlow backend) applied as if each replica were its own model: no epsilon, the norm
 * compared with `clipnorm` through a maximum.
 *
 * The `(replicas, 1)` factors multiply each slice through `scaleReplicaRows`: broadcast, or
 * on tfjs-cpu, which broadcasts slowly, spread first.
 *
 * @param gradient - `(replicas, …)`, the gradient of one variable
 * @param clipnorm - the largest norm a replica's slice may keep, positive: a number, a scalar
 *   tensor (to upload it once for many gradients), or one per replica `(replicas, 1)`
 * @returns `(replicas, …)`, the clipped gradient (a new tensor; call inside `tf.tidy`)
 */
export function clipByReplicaNorm(gradient: tf.Tensor, clipnorm: number | tf.Tensor): tf.Tensor {
  const [replicas = 0, ...rest] = gradient.shape;
  const perReplica = rest.reduce((a, b) => a * b, 1);
  const rows = tf.reshape<tf.Rank.R2>(gradient, [replicas, perReplica]);
  const norms = tf.sqrt(tf.sum(tf.square(rows), 1, true));
  const factors = tf.div<tf.Tensor2D>(clipnorm, tf.maximum(norms, clipnorm));
  return tf.reshape(scaleReplicaRows(rows, factors), gradient.shape);
}
