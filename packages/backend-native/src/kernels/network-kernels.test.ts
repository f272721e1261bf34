import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import {
  DENSE_NETWORK_GRAD_KERNEL,
  DENSE_NETWORK_KERNEL,
  denseNetworkAttrs,
  runDenseNetwork,
  runDenseNetworkGrad,
  type DenseActivation,
} from '@partonfit/backend';
import { nativeAvailable, randomValues } from '../testing/native.fixture.js';

const POINTS = 9;
const SIZES = [2, 6, 4, 3];
/** Per layer, each of three replicas' activation: every activation somewhere. */
const ACTIVATIONS: DenseActivation[][] = [
  ['tanh', 'modified_tanh', 'softplus'],
  ['sigmoid', 'elu', 'leaky_relu'],
  ['relu', 'square', 'linear'],
];
const REPLICAS = 3;

interface Network {
  readonly kernels: Float32Array[];
  readonly biases: Float32Array[];
}

function randomNetwork(seed: number): Network {
  return {
    kernels: ACTIVATIONS.map((_, l) =>
      randomValues(REPLICAS * SIZES[l] * SIZES[l + 1], seed + l, -0.9, 0.9),
    ),
    biases: ACTIVATIONS.map((_, l) => randomValues(REPLICAS * SIZES[l + 1], seed + 10 + l)),
  };
}

/** Replica r's rows of a `(replicas, …)` array. */
function row(values: Float32Array, r: number, replicas = REPLICAS): Float32Array {
  const size = values.length / replicas;
  return values.slice(r * size, (r + 1) * size);
}

/** Output, then every kernel's and bias's gradient, of `replicas` replicas. */
function run(
  input: tf.Tensor,
  network: Network,
  activations: DenseActivation[][],
  upstream: Float32Array,
): Float32Array[] {
  const replicas = activations[0].length;
  return tf.tidy(() => {
    const kernels = network.kernels.map((kernel, l) =>
      tf.tensor3d(kernel, [replicas, SIZES[l], SIZES[l + 1]]),
    );
    const biases = network.biases.map((bias, l) => tf.tensor3d(bias, [replicas, 1, SIZES[l + 1]]));
    const attrs = denseNetworkAttrs(activations, 0.2);
    const [output, tape] = runDenseNetwork(input, kernels, biases, attrs);
    const gradients = runDenseNetworkGrad(
      tf.tensor3d(upstream, [replicas, POINTS, SIZES[3]]),
      input,
      kernels,
      tape,
      attrs,
    );
    return [output, ...gradients.slice(1)].map((tensor) => tensor.dataSync() as Float32Array);
  });
}

describe.skipIf(!nativeAvailable)('the dense network kernels on native', () => {
  const x = randomValues(POINTS * SIZES[0], 1);
  const network = randomNetwork(20);
  const upstream = randomValues(REPLICAS * POINTS * SIZES[3], 40);

  it('should be registered kernels of the native backend', async () => {
    await tf.setBackend('native');
    expect(tf.getKernel(DENSE_NETWORK_KERNEL, 'native')).toBeDefined();
    expect(tf.getKernel(DENSE_NETWORK_GRAD_KERNEL, 'native')).toBeDefined();
  });

  it('should compute each replica, of its own activations, exactly as that replica alone', async () => {
    await tf.setBackend('native');
    const together = run(tf.tensor2d(x, [POINTS, SIZES[0]]), network, ACTIVATIONS, upstream);
    for (let r = 0; r < REPLICAS; r++) {
      const alone = run(
        tf.tensor2d(x, [POINTS, SIZES[0]]),
        {
          kernels: network.kernels.map((k) => row(k, r)),
          biases: network.biases.map((b) => row(b, r)),
        },
        ACTIVATIONS.map((layer) => [layer[r]]),
        row(upstream, r),
      );
      together.forEach((values, k) => {
        expect(row(values, r)).toEqual(alone[k]);
      });
    }
  });

  it('should read a per-replica input as the shared one repeated', async () => {
    await tf.setBackend('native');
    const shared = run(tf.tensor2d(x, [POINTS, SIZES[0]]), network, ACTIVATIONS, upstream);
    const repeated = new Float32Array(REPLICAS * x.length);
    for (let r = 0; r < REPLICAS; r++) repeated.set(x, r * x.length);
    const perReplica = run(
      tf.tensor3d(repeated, [REPLICAS, POINTS, SIZES[0]]),
      network,
      ACTIVATIONS,
      upstream,
    );
    expect(perReplica).toEqual(shared);
  });

  it('should keep a NaN weight in its own replica', async () => {
    await tf.setBackend('native');
    const clean = run(tf.tensor2d(x, [POINTS, SIZES[0]]), network, ACTIVATIONS, upstream);
    const kernels = network.kernels.map((kernel) => kernel.slice());
    kernels[1][SIZES[1] * SIZES[2] + 3] = Number.NaN; // replica 1, layer 1
    const poisoned = run(
      tf.tensor2d(x, [POINTS, SIZES[0]]),
      { ...network, kernels },
      ACTIVATIONS,
      upstream,
    );
    poisoned.forEach((values, k) => {
      expect(row(values, 1).some(Number.isNaN)).toBe(true);
      expect([row(values, 0), row(values, 2)]).toEqual([row(clean[k], 0), row(clean[k], 2)]);
    });
  });
});
