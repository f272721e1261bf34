import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError, oneOf, positiveInteger, ShapeError } from '@partonfit/core';
import type { LayerArgs } from '../ops/index.js';
import { applyActivation, checkActivation, type ActivationName } from './activations.js';
import {
  checkInitializer,
  checkSeed,
  initialReplicaKernels,
  type InitializerName,
} from './initializers.js';
import { singleInput, singleShape } from './layer-input.js';
import { replicaDense, sharedInputDense } from './replica-products.js';
import { perReplicaNetwork } from './replica-network.js';

/**
 * How {@link MultiDenseNetwork} computes:
 *
 * - `per-replica`: the whole network as one custom-gradient operation of per-replica plain 2-D
 *   products (`perReplicaNetwork`); fastest with more than one replica (1.8× on wasm, 1.1× on
 *   cpu at 100 replicas);
 * - `layer-by-layer`: as a {@link MultiDense} stack computes (one 2-D product for the first
 *   layer, batched products after, plain 2-D products throughout with one replica); fastest
 *   with one replica;
 * - `auto`: `layer-by-layer` for one replica, `per-replica` for more.
 */
export type NetworkFormulation = 'auto' | 'per-replica' | 'layer-by-layer';

const FORMULATIONS: readonly NetworkFormulation[] = ['auto', 'per-replica', 'layer-by-layer'];

/** Arguments of {@link MultiDenseNetwork}. */
export interface MultiDenseNetworkArgs extends LayerArgs {
  /** Output units of each layer (`nodes_per_layer`), e.g. `[25, 20, 8]`. */
  readonly units: readonly number[];
  /** The activation of each layer (`activation_per_layer`), e.g. `['tanh', 'tanh', 'linear']`. */
  readonly activations: readonly ActivationName[];
  /** The kernel initialiser; default `glorot_normal`. Biases start at 0. */
  readonly initializer?: InitializerName;
  /**
   * The seeds, `(layers, replicas)`: `seeds[l][r]` initialises layer l of replica r exactly as
   * `MultiDense({ seeds: seeds[l] })` would (upstream: nnseed_r + l).
   */
  readonly seeds: readonly (readonly number[])[];
  /** How to compute; default `auto`. */
  readonly formulation?: NetworkFormulation;
}

/**
 * A whole multi-replica dense network in one layer: the same weights, initialisation and
 * numbers as a stack of {@link MultiDense} layers (the first with a shared input), with weights
 * `kernel_<l>` `(replicas, in, units)` and `bias_<l>` `(replicas, 1, units)` in the stack's
 * order, so `getWeights`/`setWeights` carry over between the two.
 *
 * Input: `(points, in)`, shared by all replicas. Output: `(replicas, points, units_last)`.
 *
 * It exists for speed: with more than one replica its default `per-replica` formulation runs
 * the NNPDF4.0 network forward and backward 1.7–1.8× faster on wasm (and ~10% faster on cpu)
 * than the layer stack, whose `(replicas, points, units)` tensors between layers can only be
 * multiplied as batched products (a scalar loop on wasm) or split per replica (every wasm slice
 * copies the whole tensor). See the `multi-dense` module documentation for the measurements.
 */
export class MultiDenseNetwork extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitMultiDenseNetwork';
  /** Output units of each layer. */
  readonly units: readonly number[];
  /** Activation of each layer. */
  readonly activations: readonly ActivationName[];
  /** The kernel initialiser. */
  readonly initializer: InitializerName;
  /** The seeds, `(layers, replicas)`. */
  readonly seeds: readonly (readonly number[])[];
  /** The formulation asked for. */
  readonly formulation: NetworkFormulation;
  private kernels: tfl.LayerVariable[] = [];
  private biases: tfl.LayerVariable[] = [];

  constructor(args: MultiDenseNetworkArgs) {
    super(args);
    const layers = args.units.length;
    if (layers === 0 || args.activations.length !== layers || args.seeds.length !== layers) {
      throw new InvalidArgumentError({
        argument: 'units, activations, seeds',
        problem: `expected one entry per layer in each, got ${args.units.length} units, ${args.activations.length} activations and ${args.seeds.length} seed lists`,
      });
    }
    args.units.forEach((units, l) => positiveInteger(units, `units[${l}]`));
    const replicas = args.seeds[0]?.length ?? 0;
    args.seeds.forEach((layerSeeds, l) => {
      if (layerSeeds.length !== replicas || replicas === 0) {
        throw new InvalidArgumentError({
          argument: `seeds[${l}]`,
          problem: `expected one seed per replica (${replicas}) in every layer, got ${layerSeeds.length}`,
        });
      }
      layerSeeds.forEach((seed, r) => {
        checkSeed(seed, `seeds[${l}][${r}]`);
      });
    });
    this.units = [...args.units];
    this.activations = args.activations.map((activation, l) =>
      checkActivation(activation, `activations[${l}]`),
    );
    this.initializer = checkInitializer(args.initializer ?? 'glorot_normal');
    this.seeds = args.seeds.map((layerSeeds) => [...layerSeeds]);
    this.formulation = oneOf(args.formulation ?? 'auto', FORMULATIONS, 'formulation', {
      loose: true,
    });
  }

  /** Number of replicas. */
  get replicas(): number {
    return this.seeds[0]?.length ?? 0;
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    let inputs = this.inputFeatures(inputShape);
    this.kernels = [];
    this.biases = [];
    this.units.forEach((units, l) => {
      const kernel = this.addWeight(
        `kernel_${l}`,
        [this.replicas, inputs, units],
        'float32',
        tfl.initializers.zeros(),
      );
      const bias = this.addWeight(
        `bias_${l}`,
        [this.replicas, 1, units],
        'float32',
        tfl.initializers.zeros(),
      );
      const shape: [number, number] = [inputs, units];
      tf.tidy(() => {
        kernel.write(initialReplicaKernels(this.initializer, this.seeds[l] ?? [], shape));
      });
      this.kernels.push(kernel);
      this.biases.push(bias);
      inputs = units;
    });
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    this.inputFeatures(inputShape);
    return [
      this.replicas,
      singleShape(inputShape)[0] ?? null,
      this.units[this.units.length - 1] ?? 0,
    ];
  }

  /** The formulation a call uses now: `auto` resolved for the active backend. */
  activeFormulation(): Exclude<NetworkFormulation, 'auto'> {
    if (this.formulation !== 'auto') return this.formulation;
    // native's batched products are fast enough that the shared stack wins at every R
    if (this.replicas === 1 || tf.getBackend() === 'native') return 'layer-by-layer';
    return 'per-replica';
  }

  /**
   * @param inputs - `(points, in)`
   * @returns `(replicas, points, units_last)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor3D {
    return tf.tidy(() => {
      const x = singleInput(inputs, this.name) as tf.Tensor2D;
      this.inputFeatures(x.shape);
      if (this.kernels.length === 0) this.build(x.shape);
      const kernels = this.kernels.map((kernel) => kernel.read() as tf.Tensor3D);
      const biases = this.biases.map((bias) => bias.read() as tf.Tensor3D);
      if (this.activeFormulation() === 'per-replica') {
        return perReplicaNetwork(x, kernels, biases, this.activations);
      }
      return kernels.reduce((h: tf.Tensor, kernel, l) => {
        const bias = biases[l];
        const linear =
          l === 0
            ? sharedInputDense(h as tf.Tensor2D, kernel, bias)
            : replicaDense(h as tf.Tensor3D, kernel, bias);
        return applyActivation(this.activations[l] ?? 'linear', linear);
      }, x) as tf.Tensor3D;
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      units: [...this.units],
      activations: [...this.activations],
      initializer: this.initializer,
      seeds: this.seeds.map((layerSeeds) => [...layerSeeds]),
      formulation: this.formulation,
    };
  }

  private inputFeatures(inputShape: tfl.Shape | tfl.Shape[] | readonly number[]): number {
    const shape = singleShape(inputShape);
    const features = shape[1];
    if (shape.length !== 2 || features === null) {
      throw new ShapeError({
        quantity: `${this.name} input`,
        expected: [null, null],
        actual: shape.map((size) => size ?? -1),
        axes: '(points, in)',
      });
    }
    return features;
  }
}

tf.serialization.registerClass(MultiDenseNetwork);

/**
 * A {@link MultiDenseNetwork} (tfjs-style factory): `(points, in)` →
 * `(replicas, points, units_last)`.
 */
export function multiDenseNetwork(args: MultiDenseNetworkArgs): MultiDenseNetwork {
  return new MultiDenseNetwork(args);
}
