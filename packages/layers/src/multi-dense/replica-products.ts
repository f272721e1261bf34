import * as tf from '@tensorflow/tfjs-core';
import { withCustomGrad } from '../ops/index.js';

/**
 * `x @ kernel[r] + bias[r]` for every replica r from an input shared by all replicas, as ONE
 * plain 2-D product `(points, in) @ (in, replicas·units)` with the bias fused, then a reshape
 * and transpose to `(replicas, points, units)`.
 *
 * The backward is written with explicit transposes so that both products stay plain 2-D
 * (`dx = dz @ Kᵀ`, `dK = xᵀ @ dz` on the `(points, replicas·units)` layout), the form wasm
 * multiplies with XNNPACK; the bias gradient is a sum over points.
 *
 * @param x - the shared input `(points, in)`
 * @param kernel - `(replicas, in, units)`
 * @param bias - `(replicas, 1, units)`
 * @returns `(replicas, points, units)`, before the activation
 */
export function sharedInputDense(
  x: tf.Tensor2D,
  kernel: tf.Tensor3D,
  bias: tf.Tensor3D,
): tf.Tensor3D {
  const [replicas, inputs, units] = kernel.shape;
  const points = x.shape[0];
  const columns = replicas * units;
  const toReplicaMajor = (flat: tf.Tensor2D) =>
    replicas === 1
      ? tf.reshape(flat, [1, points, units])
      : tf.transpose(tf.reshape(flat, [points, replicas, units]), [1, 0, 2]);
  const toPointMajor = (perReplica: tf.Tensor) =>
    tf.reshape<tf.Rank.R2>(replicas === 1 ? perReplica : tf.transpose(perReplica, [1, 0, 2]), [
      points,
      columns,
    ]);

  const product = withCustomGrad(([input, kernels, biases], save) => {
    const flatKernel = tf.reshape<tf.Rank.R2>(
      replicas === 1 ? kernels : tf.transpose(kernels, [1, 0, 2]),
      [inputs, columns],
    );
    const flat = tf.fused.matMul({
      a: input,
      b: flatKernel,
      bias: rankOneBias(biases, columns),
    });
    save([input, flatKernel]);
    return {
      value: toReplicaMajor(flat as tf.Tensor2D),
      gradFunc: (dz, saved) => {
        const [savedInput, savedKernel] = saved as [tf.Tensor2D, tf.Tensor2D];
        const dzFlat = toPointMajor(dz);
        const dInput = tf.matMul(dzFlat, tf.transpose(savedKernel));
        const dFlatKernel = tf.matMul(tf.transpose(savedInput), dzFlat);
        const dKernel =
          replicas === 1
            ? tf.reshape(dFlatKernel, [1, inputs, units])
            : tf.transpose(tf.reshape(dFlatKernel, [inputs, replicas, units]), [1, 0, 2]);
        const dBias = tf.reshape(tf.sum(dzFlat, 0), [replicas, 1, units]);
        return [dInput, dKernel, dBias];
      },
    };
  });
  return product(x, kernel, bias) as tf.Tensor3D;
}

/**
 * `h[r] @ kernel[r] + bias[r]` for every replica r.
 *
 * With one replica this is a plain 2-D product with the bias fused and a backward of plain 2-D
 * products of explicit transposes (XNNPACK on wasm). With more, a batched product: the wasm
 * backend has no fast batched kernel (its scalar loop runs whatever the layout), and splitting
 * into per-replica 2-D products costs more than it saves there because every wasm `slice`
 * copies the whole input (see the module's measurements).
 *
 * @param h - `(replicas, points, in)`
 * @param kernel - `(replicas, in, units)`
 * @param bias - `(replicas, 1, units)`
 * @returns `(replicas, points, units)`, before the activation
 */
export function replicaDense(h: tf.Tensor3D, kernel: tf.Tensor3D, bias: tf.Tensor3D): tf.Tensor3D {
  const [replicas, inputs, units] = kernel.shape;
  const points = h.shape[1];
  if (replicas !== 1) {
    return tf.add(tf.matMul(h, kernel), bias);
  }
  const product = withCustomGrad(([input, kernels, biases], save) => {
    const flatInput = tf.reshape<tf.Rank.R2>(input, [points, inputs]);
    const flatKernel = tf.reshape<tf.Rank.R2>(kernels, [inputs, units]);
    const flat = tf.fused.matMul({
      a: flatInput,
      b: flatKernel,
      bias: rankOneBias(biases, units),
    });
    save([flatInput, flatKernel]);
    return {
      value: tf.reshape(flat, [1, points, units]),
      gradFunc: (dz, saved) => {
        const [savedInput, savedKernel] = saved as [tf.Tensor2D, tf.Tensor2D];
        const dzFlat = tf.reshape<tf.Rank.R2>(dz, [points, units]);
        return [
          tf.reshape(tf.matMul(dzFlat, tf.transpose(savedKernel)), [1, points, inputs]),
          tf.reshape(tf.matMul(tf.transpose(savedInput), dzFlat), [1, inputs, units]),
          tf.reshape(tf.sum(dzFlat, 0), [1, 1, units]),
        ];
      },
    };
  });
  return product(h, kernel, bias) as tf.Tensor3D;
}

/**
 * The bias as a rank-1 tensor with its own buffer: the wasm `_FusedMatMul` kernel reads the
 * rank a buffer was created with, so a mere reshape of a `(replicas, 1, units)` bias is
 * rejected ("only supports rank-1 bias"); the copy is `replicas·units` numbers.
 */
function rankOneBias(bias: tf.Tensor, size: number): tf.Tensor1D {
  return tf.clone(tf.reshape<tf.Rank.R1>(bias, [size]));
}
