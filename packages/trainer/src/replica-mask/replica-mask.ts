import * as tf from '@tensorflow/tfjs-core';

/**
 * The `(replicas)` mask spread over a variable's shape, as bool: `(replicas, 1)` times a row of
 * ones, reshaped. Why not `tf.where` with a `(replicas, 1, …)` condition: `where` broadcasts it
 * with `broadcastTo` (a Tile), which is slow on wasm — 4.0 ms against 0.8 ms this way for one
 * `(100, 25, 20)` select, measured; on cpu 2.1 against 1.4 ms.
 *
 * @param activeColumn - `(replicas, 1)`, 0/1
 * @returns bool, of `shape` `(replicas, …)`
 */
export function spreadReplicaMask(activeColumn: tf.Tensor, shape: readonly number[]): tf.Tensor {
  const perReplica = shape.slice(1).reduce((a, b) => a * b, 1);
  const spread = tf.matMul(activeColumn, tf.ones([1, perReplica]));
  return tf.notEqual(tf.reshape(spread, [...shape]), 0);
}
