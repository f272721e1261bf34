import type * as tf from '@tensorflow/tfjs-core';
import {
  denseNetworkAttrs,
  runDenseNetwork,
  runDenseNetworkGrad,
  type ReplicaLayers,
} from '@partonfit/backend';
import { withCustomGrad } from '../ops/index.js';
import { LEAKY_RELU_ALPHA } from './activations.js';

/**
 * A stack of per-replica dense layers as the backend's two network kernels: the forward
 * computes every layer of every replica and keeps each layer's pre-activation and activation on
 * a tape, which the backward reads. Each replica may have its own activation per layer, without
 * slicing the replicas apart, and its own width (it then reads only its block of the kernel and
 * bias, multiplied at its own sizes, and its other weights get gradient 0) or pass a layer
 * through, so no masks are applied to the weights. The numbers are those of the layer-by-layer
 * formulation up to the order of float32 sums (the native kernels use the same element-wise
 * functions and products).
 *
 * Check `hasDenseNetworkKernels` of `@partonfit/backend` first.
 *
 * @param input - `(points, in)` shared by every replica, or `(replicas, points, in)`
 * @param kernels - per layer `(replicas, in_l, units_l)`
 * @param biases - per layer `(replicas, 1, units_l)`
 * @param replicaLayers - per layer, each replica's activation, and where they differ from the
 *   layers' its width and whether it passes the layer through, each `(layers, replicas)`
 * @returns `(replicas, points, units_last)`
 */
export function fusedDenseNetwork(
  input: tf.Tensor,
  kernels: readonly tf.Tensor3D[],
  biases: readonly tf.Tensor3D[],
  replicaLayers: ReplicaLayers,
): tf.Tensor3D {
  const attrs = denseNetworkAttrs(replicaLayers, LEAKY_RELU_ALPHA);
  const layers = kernels.length;
  const network = withCustomGrad(([networkInput, ...weights], save) => {
    const layerKernels = weights.filter((_, k) => k % 2 === 0);
    const layerBiases = weights.filter((_, k) => k % 2 === 1);
    const [output, tape] = runDenseNetwork(networkInput, layerKernels, layerBiases, attrs);
    save([networkInput, ...layerKernels, tape]);
    return {
      value: output,
      gradFunc: (dy, saved) =>
        runDenseNetworkGrad(dy, saved[0], saved.slice(1, 1 + layers), saved[1 + layers], attrs),
    };
  });
  return network(input, ...kernels.flatMap((kernel, l) => [kernel, biases[l]])) as tf.Tensor3D;
}
