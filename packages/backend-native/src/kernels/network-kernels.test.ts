import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import {
  DENSE_NETWORK_GRAD_KERNEL,
  DENSE_NETWORK_KERNEL,
  denseNetworkAttrs,
  runDenseNetwork,
  runDenseNetworkGrad,
  type DenseActivation,
  type ReplicaLayers,
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
  layers: ReplicaLayers,
  upstream: Float32Array,
  sizes = SIZES,
): Float32Array[] {
  const replicas = layers.activations[0].length;
  return tf.tidy(() => {
    const kernels = network.kernels.map((kernel, l) =>
      tf.tensor3d(kernel, [replicas, sizes[l], sizes[l + 1]]),
    );
    const biases = network.biases.map((bias, l) => tf.tensor3d(bias, [replicas, 1, sizes[l + 1]]));
    const attrs = denseNetworkAttrs(layers, 0.2);
    const [output, tape] = runDenseNetwork(input, kernels, biases, attrs);
    const gradients = runDenseNetworkGrad(
      tf.tensor3d(upstream, [replicas, POINTS, sizes[sizes.length - 1]]),
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
    const together = run(
      tf.tensor2d(x, [POINTS, SIZES[0]]),
      network,
      { activations: ACTIVATIONS },
      upstream,
    );
    for (let r = 0; r < REPLICAS; r++) {
      const alone = run(
        tf.tensor2d(x, [POINTS, SIZES[0]]),
        {
          kernels: network.kernels.map((k) => row(k, r)),
          biases: network.biases.map((b) => row(b, r)),
        },
        { activations: ACTIVATIONS.map((layer) => [layer[r]]) },
        row(upstream, r),
      );
      together.forEach((values, k) => {
        expect(row(values, r)).toEqual(alone[k]);
      });
    }
  });

  it('should read a per-replica input as the shared one repeated', async () => {
    await tf.setBackend('native');
    const shared = run(
      tf.tensor2d(x, [POINTS, SIZES[0]]),
      network,
      { activations: ACTIVATIONS },
      upstream,
    );
    const repeated = new Float32Array(REPLICAS * x.length);
    for (let r = 0; r < REPLICAS; r++) repeated.set(x, r * x.length);
    const perReplica = run(
      tf.tensor3d(repeated, [REPLICAS, POINTS, SIZES[0]]),
      network,
      { activations: ACTIVATIONS },
      upstream,
    );
    expect(perReplica).toEqual(shared);
  });

  it('should keep a NaN weight in its own replica', async () => {
    await tf.setBackend('native');
    const clean = run(
      tf.tensor2d(x, [POINTS, SIZES[0]]),
      network,
      { activations: ACTIVATIONS },
      upstream,
    );
    const kernels = network.kernels.map((kernel) => kernel.slice());
    kernels[1][SIZES[1] * SIZES[2] + 3] = Number.NaN; // replica 1, layer 1
    const poisoned = run(
      tf.tensor2d(x, [POINTS, SIZES[0]]),
      { ...network, kernels },
      { activations: ACTIVATIONS },
      upstream,
    );
    poisoned.forEach((values, k) => {
      expect(row(values, 1).some(Number.isNaN)).toBe(true);
      expect([row(values, 0), row(values, 2)]).toEqual([row(clean[k], 0), row(clean[k], 2)]);
    });
  });

  it('should compute a narrower replica, and one passing a layer through, exactly as its own network', async () => {
    await tf.setBackend('native');
    // replica 0 full (6, 4, 3); replica 1 (3, 2, 3); replica 2 passes layer 0 through (2, 4, 3)
    const widths = [
      [6, 3, 2],
      [4, 2, 4],
      [3, 3, 3],
    ];
    const passThrough = [
      [false, false, true],
      [false, false, false],
      [false, false, false],
    ];
    const padded = run(
      tf.tensor2d(x, [POINTS, SIZES[0]]),
      network,
      { activations: ACTIVATIONS, widths, passThrough },
      upstream,
    );
    for (const r of [1, 2]) {
      const own = [SIZES[0], ...widths.map((layer) => layer[r])];
      /** Replica r's kernel entries of layer l inside its own block, and those outside it. */
      const split = (values: Float32Array, l: number) => {
        const [rows, columns] = [SIZES[l], SIZES[l + 1]];
        const inside: number[] = [];
        const outside: number[] = [];
        for (let i = 0; i < rows; i++) {
          for (let j = 0; j < columns; j++) {
            const kept = !passThrough[l][r] && i < own[l] && j < own[l + 1];
            (kept ? inside : outside).push(values[(r * rows + i) * columns + j]);
          }
        }
        return { inside: Float32Array.from(inside), outside };
      };
      const layers = [0, 1, 2].filter((l) => !passThrough[l][r]);
      const alone = run(
        tf.tensor2d(x, [POINTS, SIZES[0]]),
        {
          kernels: layers.map((l) => split(network.kernels[l], l).inside),
          biases: layers.map((l) => row(network.biases[l], r).slice(0, own[l + 1])),
        },
        { activations: layers.map((l) => [ACTIVATIONS[l][r]]) },
        row(upstream, r),
        [own[0], ...layers.map((l) => own[l + 1])],
      );
      expect(row(padded[0], r)).toEqual(alone[0]);
      layers.forEach((l, k) => {
        expect(split(padded[1 + 2 * l], l).inside).toEqual(alone[1 + 2 * k]);
      });
      // the weights outside its block, and all of a layer passed through, get gradient 0
      [0, 1, 2].forEach((l) => {
        expect(split(padded[1 + 2 * l], l).outside.every((value) => value === 0)).toBe(true);
      });
    }
  });
});
