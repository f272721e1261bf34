import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { EVOLUTION_BASIS_SIZE, InvalidArgumentError, ShapeError } from '@partonfit/core';
import { NETWORK_INPUTS } from '../feature-scaling/network-input.js';
import {
  applyActivation,
  checkActivation,
  type ActivationName,
} from '../multi-dense/activations.js';
import { singleInput, singleShape } from '../multi-dense/layer-input.js';
import { LOG_ONE_MINUS_X_FLOOR } from '../preprocessing/preprocessing.js';
import type { LayerArgs } from '../ops/layer-types.js';

function checkColumns(shape: tfl.Shape, columns: number, quantity: string, axes: string): void {
  if (shape.length !== 2 || shape[1] !== columns) {
    throw new ShapeError({
      quantity,
      expected: [null, columns],
      actual: shape.map((size) => size ?? -1),
      axes,
    });
  }
}

/** Arguments of {@link ReplicaPreprocessing}. */
export interface ReplicaPreprocessingArgs extends LayerArgs {
  /** The fitted flavours' names in network-output order (`sng`, `g`, `v`, …). */
  readonly flavours: readonly string[];
}

/**
 * One replica's preprocessing prefactor `x^(1 − α_f) · (1 − x)^β_f` for every fitted flavour f,
 * computed as the multi-replica `Preprocessing` layer computes it (one product
 * `[log x, log(1 − x)] @ [1 − α; β]` and an exponential).
 *
 * Input: the network features `[x, log x]`, `(points, 2)` (only x is read). Output:
 * `(points, flavours)`. Weights: `alpha_<fl>` and `beta_<fl>`, shape `(1)`, not trainable (an
 * exported replica is evaluated, not trained).
 */
export class ReplicaPreprocessing extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitReplicaPreprocessing';
  /** The fitted flavours. */
  readonly flavours: readonly string[];
  private alphas: tfl.LayerVariable[] = [];
  private betas: tfl.LayerVariable[] = [];

  constructor(args: ReplicaPreprocessingArgs) {
    super(args);
    if (args.flavours.length === 0) {
      throw new InvalidArgumentError({ argument: 'flavours', problem: 'expected at least one' });
    }
    this.flavours = [...args.flavours];
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    this.checkInput(singleShape(inputShape));
    const weight = (name: string) =>
      this.addWeight(name, [1], 'float32', tfl.initializers.zeros(), undefined, false);
    this.alphas = this.flavours.map((fl) => weight(`alpha_${fl}`));
    this.betas = this.flavours.map((fl) => weight(`beta_${fl}`));
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    const shape = singleShape(inputShape);
    this.checkInput(shape);
    return [shape[0] ?? null, this.flavours.length];
  }

  /**
   * @param inputs - `[x, log x]`, `(points, 2)`
   * @returns `(points, flavours)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor2D {
    return tf.tidy(() => {
      const features = singleInput(inputs, this.name) as tf.Tensor2D;
      this.checkInput(features.shape);
      const x = tf.slice(features, [0, 0], [-1, 1]);
      const logs = tf.concat(
        [tf.log(x), tf.maximum(tf.log(tf.sub(1, x)), LOG_ONE_MINUS_X_FLOOR)],
        1,
      );
      const row = (weights: readonly tfl.LayerVariable[]) =>
        tf.reshape(tf.concat(weights.map((weight) => weight.read())), [1, this.flavours.length]);
      const exponents = tf.concat([tf.sub(1, row(this.alphas)), row(this.betas)], 0);
      return tf.exp(tf.matMul(logs, exponents));
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return { ...super.getConfig(), flavours: [...this.flavours] };
  }

  private checkInput(shape: tfl.Shape | readonly number[]): void {
    checkColumns(shape as tfl.Shape, NETWORK_INPUTS, `${this.name} input`, '(points, [x, log x])');
  }
}

tf.serialization.registerClass(ReplicaPreprocessing);

/** Arguments of {@link ReplicaActivation}. */
export interface ReplicaActivationArgs extends LayerArgs {
  /** A partonfit activation that tfjs-layers has no name for (`square`, `leaky_relu`, …). */
  readonly activation: ActivationName;
}

/**
 * A partonfit activation applied elementwise, for the activations tfjs-layers' `dense` cannot
 * name (`square`, `leaky_relu` with slope 0.2, `modified_tanh`). No weights; any shape.
 */
export class ReplicaActivation extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitReplicaActivation';
  /** The activation. */
  readonly activation: ActivationName;

  constructor(args: ReplicaActivationArgs) {
    super(args);
    this.activation = checkActivation(args.activation);
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    return singleShape(inputShape);
  }

  /** @returns the activation of the input, same shape */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    return tf.tidy(() => applyActivation(this.activation, singleInput(inputs, this.name)));
  }

  override getConfig(): tf.serialization.ConfigDict {
    return { ...super.getConfig(), activation: this.activation };
  }
}

tf.serialization.registerClass(ReplicaActivation);

/**
 * The frozen sum-rule normalisation of one replica: the PDF in the evolution basis times the
 * factors A, one per flavour.
 *
 * Input and output: `(points, 14)`. Weight: `factors`, `(14)`, not trainable.
 */
export class SumRuleFactors extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitSumRuleFactors';
  private factors: tfl.LayerVariable | undefined;

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    this.checkInput(singleShape(inputShape));
    this.factors = this.addWeight(
      'factors',
      [EVOLUTION_BASIS_SIZE],
      'float32',
      tfl.initializers.ones(),
      undefined,
      false,
    );
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    const shape = singleShape(inputShape);
    this.checkInput(shape);
    return shape;
  }

  /**
   * @param inputs - the unnormalised PDF, `(points, 14)`
   * @returns the normalised PDF, `(points, 14)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor2D {
    return tf.tidy(() => {
      const pdf = singleInput(inputs, this.name) as tf.Tensor2D;
      this.checkInput(pdf.shape);
      if (this.factors === undefined) this.build(pdf.shape);
      return tf.mul(pdf, (this.factors as tfl.LayerVariable).read());
    });
  }

  private checkInput(shape: tfl.Shape | readonly number[]): void {
    checkColumns(
      shape as tfl.Shape,
      EVOLUTION_BASIS_SIZE,
      `${this.name} input`,
      '(points, evolution flavour)',
    );
  }
}

tf.serialization.registerClass(SumRuleFactors);
