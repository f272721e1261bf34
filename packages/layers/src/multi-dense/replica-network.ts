import * as tf from '@tensorflow/tfjs-core';
import { withCustomGrad } from '../ops/index.js';
import { applyActivation, type ActivationName } from './activations.js';

/**
 * How each activation's derivative is computed in the backward pass: from the saved output
 * a = act(z), from the saved input z, or not at all (linear).
 */
const DERIVATIVES: Readonly<
  Record<
    ActivationName,
    { readonly from: 'output' | 'input' | 'none'; derivative: (t: tf.Tensor) => tf.Tensor }
  >
> = {
  linear: { from: 'none', derivative: (t) => t },
  tanh: { from: 'output', derivative: (a) => tf.sub(1, tf.square(a)) },
  sigmoid: { from: 'output', derivative: (a) => tf.mul(a, tf.sub(1, a)) },
  relu: { from: 'output', derivative: (a) => tf.step(a, 0) },
  elu: { from: 'output', derivative: (a) => tf.add(tf.minimum(a, 0), 1) },
  softplus: { from: 'output', derivative: (a) => tf.sub(1, tf.exp(tf.neg(a))) },
  square: { from: 'input', derivative: (z) => tf.mul(z, 2) },
  leaky_relu: { from: 'output', derivative: (a) => tf.step(a, 0.2) },
  modified_tanh: {
    from: 'input',
    derivative: (z) => {
      const tanh = tf.tanh(z);
      return tf.add(tf.mul(tf.sign(z), tanh), tf.mul(tf.abs(z), tf.sub(1, tf.square(tanh))));
    },
  },
};

/**
 * A whole stack of per-replica dense layers from a shared input as ONE custom-gradient
 * operation that runs every replica's network as plain 2-D products (XNNPACK on wasm), forward
 * and backward, keeping each replica's activations as separate tensors between layers.
 *
 * Why: with one layer per operation the `(replicas, points, units)` tensor between layers must
 * be split per replica in the backward pass, and on wasm every slice copies the whole tensor,
 * while batched products run in a scalar loop. Here only the network output's gradient is split,
 * once, by `gather` (linear cost); the result is the same numbers as the layer-by-layer form.
 *
 * @param x - the shared input `(points, in)`
 * @param kernels - per layer `(replicas, in_l, units_l)`
 * @param biases - per layer `(replicas, 1, units_l)`
 * @param activations - per layer: one for every replica, or one per replica `(replicas)`
 * @returns `(replicas, points, units_last)`
 */
export function perReplicaNetwork(
  x: tf.Tensor2D,
  kernels: readonly tf.Tensor3D[],
  biases: readonly tf.Tensor3D[],
  activations: readonly (ActivationName | readonly ActivationName[])[],
): tf.Tensor3D {
  const layers = kernels.length;
  const replicas = kernels[0]?.shape[0] ?? 0;
  const points = x.shape[0];
  const activationOf = (l: number, r: number): ActivationName => {
    const layer = activations[l] ?? 'linear';
    return typeof layer === 'string' ? layer : (layer[r] ?? 'linear');
  };
  const derivatives = kernels.map((_, l) =>
    Array.from({ length: replicas }, (__, r) => DERIVATIVES[activationOf(l, r)]),
  );
  const kernelOf = (stacked: tf.Tensor, r: number) =>
    tf.reshape<tf.Rank.R2>(tf.gather(stacked, r), stacked.shape.slice(1) as [number, number]);

  const network = withCustomGrad((inputs, save) => {
    const [input, ...weights] = inputs as [tf.Tensor2D, ...tf.Tensor[]];
    const layerKernels = weights.filter((_, k) => k % 2 === 0);
    const layerBiases = weights.filter((_, k) => k % 2 === 1);
    const outputs: tf.Tensor[] = [];
    /** Per replica, per layer: the layer's input (from layer 1 on) and its derivative source. */
    const kept: tf.Tensor[] = [];
    for (let r = 0; r < replicas; r++) {
      let h: tf.Tensor = input;
      for (let l = 0; l < layers; l++) {
        if (l > 0) kept.push(h);
        const bias = layerBiases[l];
        const z = tf.fused.matMul({
          a: h,
          b: kernelOf(layerKernels[l], r),
          bias: tf.clone(tf.reshape(tf.gather(bias, r), [bias.shape[2] ?? 0])),
        });
        const a = applyActivation(activationOf(l, r), z);
        const from = derivatives[l][r].from;
        if (from === 'output') kept.push(a);
        if (from === 'input') kept.push(z);
        h = a;
      }
      outputs.push(h);
    }
    save([input, ...layerKernels, ...kept]);
    return {
      value: tf.stack(outputs),
      gradFunc: (dy, saved) => {
        const [savedInput, ...rest] = saved as [tf.Tensor2D, ...tf.Tensor[]];
        const savedKernels = rest.slice(0, layers);
        let next = layers;
        const dKernels: tf.Tensor[][] = kernels.map(() => []);
        const dBiases: tf.Tensor[][] = kernels.map(() => []);
        const dInputs: tf.Tensor[] = [];
        for (let r = 0; r < replicas; r++) {
          const layerInputs: tf.Tensor[] = [savedInput];
          const sources: (tf.Tensor | undefined)[] = [];
          for (let l = 0; l < layers; l++) {
            if (l > 0) layerInputs.push(rest[next++]);
            sources.push(derivatives[l][r].from === 'none' ? undefined : rest[next++]);
          }
          let g = tf.reshape(tf.gather(dy, r), [points, dy.shape[2] ?? 0]);
          for (let l = layers - 1; l >= 0; l--) {
            const source = sources[l];
            const dz = source === undefined ? g : tf.mul(g, derivatives[l][r].derivative(source));
            dKernels[l].push(tf.matMul(tf.transpose(layerInputs[l] as tf.Tensor2D), dz));
            dBiases[l].push(tf.sum(dz, 0, true));
            g = tf.matMul(dz, tf.transpose(kernelOf(savedKernels[l], r)));
          }
          dInputs.push(g);
        }
        return [
          tf.addN(dInputs),
          ...kernels.flatMap((_, l) => [tf.stack(dKernels[l]), tf.stack(dBiases[l])]),
        ];
      },
    };
  });
  return network(x, ...kernels.flatMap((kernel, l) => [kernel, biases[l]])) as tf.Tensor3D;
}
