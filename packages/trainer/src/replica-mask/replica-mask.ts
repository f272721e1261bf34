import * as tf from '@tensorflow/tfjs-core';
import { util } from '@tensorflow/tfjs-core';

/**
 * Whether the backend multiplies `(replicas, …)` values by a `(replicas, 1, …)` column of
 * per-replica factors as fast as by factors spread to the values' shape. tfjs-cpu broadcasts
 * slowly, so there factors are spread first (a product of the column by a row of ones); native
 * and wasm broadcast fast and the spreading is pure cost. Measured for `(24, 29, 29)` values:
 * native 27 µs broadcasting against 50 µs for the multiply plus 41 µs to spread; wasm 63 against
 * 86 + 74 µs; cpu 1,780 against 103 + 173 µs. Either way every element is multiplied by the
 * same float32 factor, so the results are the same bit for bit.
 */
export function broadcastsReplicaColumns(): boolean {
  return tf.getBackend() !== 'cpu';
}

/**
 * `(replicas, …)` values times per-replica factors `(replicas, 1)`: broadcast where the backend
 * does it fast ({@link broadcastsReplicaColumns}), else spread by a product with a row of ones.
 *
 * @param values - `(replicas, n)`
 * @param factors - `(replicas, 1)`
 * @returns `(replicas, n)`
 */
export function scaleReplicaRows(values: tf.Tensor2D, factors: tf.Tensor2D): tf.Tensor2D {
  if (broadcastsReplicaColumns()) return tf.mul(values, factors);
  return tf.mul(values, tf.matMul(factors, tf.ones([1, values.shape[1]])));
}

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

/**
 * `tf.where(condition, a, b)` for a bool condition and two operands of one shape and dtype, as
 * the `Select` kernel alone: `tf.where` first broadcasts its three operands, which for equal
 * shapes clones each (an `Identity` kernel apiece), three of the four kernels of every
 * per-replica selection the optimiser and the stopping make each step. Any other operands go
 * to `tf.where`.
 *
 * @param condition - bool, of the operands' shape
 * @param a - chosen where `condition` is true
 * @param b - chosen elsewhere, of `a`'s shape and dtype
 * @returns of `a`'s shape and dtype
 */
export function selectSameShape<T extends tf.Tensor>(condition: tf.Tensor, a: T, b: T): T {
  const sameShape = (x: tf.Tensor) => util.arraysEqual(x.shape, a.shape);
  if (condition.dtype !== 'bool' || a.dtype !== b.dtype || !sameShape(b) || !sameShape(condition)) {
    return tf.where(condition, a, b);
  }
  return tf.engine().runKernel<T>(tf.Select, { condition, t: a, e: b });
}
