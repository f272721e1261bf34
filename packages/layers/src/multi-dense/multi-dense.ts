import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError, positiveInteger, ShapeError } from '@partonfit/core';
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

/** Arguments of {@link MultiDense}. */
export interface MultiDenseArgs extends LayerArgs {
  /** Output units of each replica's layer (`nodes_per_layer[i]`). */
  readonly units: number;
  /** The activation (`activation_per_layer[i]`); default `linear`. */
  readonly activation?: ActivationName;
  /** The kernel initialiser (`parameters.initializer`); default `glorot_normal`. Biases start at 0. */
  readonly initializer?: InitializerName;
  /**
   * One seed per replica for this layer's kernel, `(replicas)`: replica r is initialised as a
   * single-replica `tf.layers.dense` with `seeds[r]` would be. The model builder derives them
   * (upstream: layer i of replica r uses nnseed_r + i).
   */
  readonly seeds: readonly number[];
  /** Number of replicas; must equal `seeds.length` (default). */
  readonly replicas?: number;
  /**
   * Whether the input is shared by all replicas, `(points, in)` without a replica axis (the
   * first layer of a network); otherwise it is `(replicas, points, in)`. Default false.
   */
  readonly sharedInput?: boolean;
}

/**
 * A dense layer for many replicas at once: kernel `(replicas, in, units)`, bias
 * `(replicas, 1, units)`, so replica r computes `activation(input_r @ kernel[r] + bias[r])`
 * exactly as its own `tf.layers.dense` would, and replicas never mix.
 *
 * Input: `(points, in)` when `sharedInput` (the network's first layer: all replicas read the
 * same x features), else `(replicas, points, in)`. Output: `(replicas, points, units)`.
 *
 * The first layer is one plain 2-D product `(points, in) @ (in, replicas·units)` with a custom
 * gradient of plain 2-D products; later layers are batched products (plain 2-D with one
 * replica). Biases are fused into the product (`tf.fused.matMul`); activations are applied
 * after it, because tfjs fuses no activation while a gradient is recorded (and none fuses
 * tanh). Measurements behind this choice are in the `multi-dense` module documentation.
 *
 * In a `tf.LayersModel` built with the functional API the first axis is tfjs' batch axis:
 * points for a shared input, replicas after it. Run such a model on whole tensors
 * (`model.apply`, `model.execute`), or `predict` with `batchSize` at least the number of
 * points, so that tfjs does not split the points axis into batches.
 *
 * @example
 * ```ts
 * import * as tf from '@tensorflow/tfjs-core';
 * import { logXFeatures, multiDense } from '@partonfit/layers';
 *
 * const seeds = [11, 12, 13]; // one per replica
 * const x = logXFeatures([1e-3, 0.1, 0.5]); // (points, 2): [x, log x]
 * let h = multiDense({ units: 25, activation: 'tanh', seeds, sharedInput: true }).apply(x);
 * h = multiDense({ units: 20, activation: 'tanh', seeds: seeds.map((s) => s + 1) }).apply(h);
 * const nn = multiDense({ units: 8, seeds: seeds.map((s) => s + 2) }).apply(h) as tf.Tensor;
 * console.log(nn.shape); // [3, 3, 8]: (replicas, points, 8)
 * ```
 */
export class MultiDense extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitMultiDense';
  /** Output units per replica. */
  readonly units: number;
  /** The activation. */
  readonly activation: ActivationName;
  /** The kernel initialiser. */
  readonly initializer: InitializerName;
  /** The per-replica seeds, `(replicas)`. */
  readonly seeds: readonly number[];
  /** Number of replicas. */
  readonly replicas: number;
  /** Whether the input has no replica axis. */
  readonly sharedInput: boolean;
  private kernel: tfl.LayerVariable | undefined;
  private bias: tfl.LayerVariable | undefined;

  constructor(args: MultiDenseArgs) {
    super(args);
    positiveInteger(args.units, 'units');
    if (args.seeds.length === 0) {
      throw new InvalidArgumentError({
        argument: 'seeds',
        problem: 'expected one seed per replica, got none',
      });
    }
    args.seeds.forEach((seed, replica) => {
      checkSeed(seed, `seeds[${replica}]`);
    });
    if (args.replicas !== undefined && args.replicas !== args.seeds.length) {
      throw new InvalidArgumentError({
        argument: 'replicas',
        problem: `${args.replicas} replicas but ${args.seeds.length} seeds; give one seed per replica`,
      });
    }
    this.units = args.units;
    this.activation = checkActivation(args.activation ?? 'linear');
    this.initializer = checkInitializer(args.initializer ?? 'glorot_normal');
    this.seeds = [...args.seeds];
    this.replicas = args.seeds.length;
    this.sharedInput = args.sharedInput ?? false;
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    const inputs = this.inputFeatures(inputShape);
    this.kernel = this.addWeight(
      'kernel',
      [this.replicas, inputs, this.units],
      'float32',
      tfl.initializers.zeros(),
    );
    this.bias = this.addWeight(
      'bias',
      [this.replicas, 1, this.units],
      'float32',
      tfl.initializers.zeros(),
    );
    const kernel = this.kernel;
    tf.tidy(() => {
      kernel.write(initialReplicaKernels(this.initializer, this.seeds, [inputs, this.units]));
    });
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    const shape = singleShape(inputShape);
    this.inputFeatures(shape);
    const points = this.sharedInput ? shape[0] : shape[1];
    return [this.replicas, points ?? null, this.units];
  }

  /**
   * @param inputs - `(points, in)` if `sharedInput`, else `(replicas, points, in)`
   * @returns `(replicas, points, units)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor3D {
    return tf.tidy(() => {
      const input = singleInput(inputs, this.name);
      this.inputFeatures(input.shape);
      if (this.kernel === undefined || this.bias === undefined) this.build(input.shape);
      const kernel = this.kernel?.read() as tf.Tensor3D;
      const bias = this.bias?.read() as tf.Tensor3D;
      const linear = this.sharedInput
        ? sharedInputDense(input as tf.Tensor2D, kernel, bias)
        : replicaDense(input as tf.Tensor3D, kernel, bias);
      return applyActivation(this.activation, linear) as tf.Tensor3D;
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      units: this.units,
      activation: this.activation,
      initializer: this.initializer,
      seeds: [...this.seeds],
      replicas: this.replicas,
      sharedInput: this.sharedInput,
    };
  }

  /** The input features `in`, after checking the input's rank and replica axis. */
  private inputFeatures(inputShape: tfl.Shape | tfl.Shape[] | readonly number[]): number {
    const shape = singleShape(inputShape);
    const expected = this.sharedInput ? [null, null] : [this.replicas, null, null];
    const features = shape[shape.length - 1];
    const replicaAxisOk = this.sharedInput || shape[0] === null || shape[0] === this.replicas;
    if (shape.length !== expected.length || !replicaAxisOk || features === null) {
      throw new ShapeError({
        quantity: `${this.name} input`,
        expected,
        actual: shape.map((size) => size ?? -1),
        axes: this.sharedInput ? '(points, in)' : '(replicas, points, in)',
      });
    }
    return features;
  }
}

tf.serialization.registerClass(MultiDense);

/**
 * A {@link MultiDense} layer (tfjs-style factory).
 *
 * Input `(points, in)` if `sharedInput`, else `(replicas, points, in)`; output
 * `(replicas, points, units)`.
 */
export function multiDense(args: MultiDenseArgs): MultiDense {
  return new MultiDense(args);
}
