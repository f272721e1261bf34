import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { stagedSum, type LayerArgs } from '../ops/index.js';

/** The α of n3fit's positivity elu: elu(z) = z for z > 0, α(eᶻ − 1) otherwise. */
export const POSITIVITY_ELU_ALPHA = 1e-7;

/** Arguments shared by {@link PositivityLoss} and {@link IntegrabilityLoss}. */
export interface LagrangePenaltyArgs extends LayerArgs {
  /**
   * The initial Lagrange multiplier λ (default 1), one for all replicas or one per replica
   * `(replicas)`; the trainer grows it during training.
   */
  readonly multiplier?: number | readonly number[];
}

/** Arguments of {@link PositivityLoss}. */
export interface PositivityLossArgs extends LagrangePenaltyArgs {
  /** α of the elu, default {@link POSITIVITY_ELU_ALPHA}. */
  readonly alpha?: number;
}

/**
 * A penalty on the predictions of a pseudo-dataset with target zero, scaled by a Lagrange
 * multiplier λ that lives on the device as the non-trainable weight `multiplier`, `(1)` for one
 * λ shared by all replicas or `(replicas, 1)` for a λ per replica: the trainer changes it with
 * {@link LagrangePenalty.setMultiplier} or, without a host round trip,
 * {@link LagrangePenalty.scaleMultiplier}; the model is not rebuilt and λ is saved with the
 * weights. Input `(replicas, data)`, output `(replicas)`, never summed over replicas.
 */
export abstract class LagrangePenalty extends tfl.layers.Layer {
  /**
   * λ when the layer was constructed, per replica `(replicas)` or one for all (the saved weight
   * takes precedence on reload).
   */
  readonly initialMultipliers: readonly number[];
  private multiplierWeight: tfl.LayerVariable | undefined;

  constructor(args: LagrangePenaltyArgs) {
    super(args);
    const multiplier = args.multiplier ?? 1;
    this.initialMultipliers =
      typeof multiplier === 'number'
        ? [finite(multiplier, 'multiplier')]
        : multiplier.map((value, r) => finite(value, `multiplier[${r}]`));
    if (this.initialMultipliers.length === 0) {
      throw new InvalidArgumentError({
        argument: 'multiplier',
        problem: 'expected a number, or one per replica, got an empty list',
      });
    }
    this.inputSpec = [new tfl.InputSpec({ ndim: 2 })];
  }

  /** λ of the first replica when constructed (the one λ of a shared multiplier). */
  get initialMultiplier(): number {
    return this.initialMultipliers[0] ?? 1;
  }

  /** Whether each replica has its own λ (the weight is `(replicas, 1)`). */
  get perReplica(): boolean {
    return this.initialMultipliers.length > 1;
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    const [replicas] = penaltyShape(inputShape, this.name);
    if (this.perReplica && replicas !== null && replicas !== this.initialMultipliers.length) {
      throw new ShapeError({
        quantity: `${this.name}: predictions`,
        expected: [this.initialMultipliers.length, null],
        actual: [replicas, -1],
        axes: '(replicas, data), one λ per replica',
      });
    }
    this.multiplierWeight = this.addWeight(
      'multiplier',
      this.multiplierShape(),
      'float32',
      tfl.initializers.zeros(),
      undefined,
      false,
    );
    const weight = this.multiplierWeight;
    tf.tidy(() => {
      weight.write(tf.tensor(this.initialMultipliers, this.multiplierShape(), 'float32'));
    });
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    return [penaltyShape(inputShape, this.name)[0]];
  }

  /**
   * @param inputs - the predictions `(replicas, data)`
   * @returns the penalty per replica `(replicas)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor1D {
    return tf.tidy(() => {
      const predictions = (Array.isArray(inputs) ? inputs[0] : inputs) as tf.Tensor2D;
      const scaled = tf.mul(predictions, this.multiplier());
      return stagedSum(this.terms(scaled)) as tf.Tensor1D;
    });
  }

  /** Sets λ, one value or one per replica (one small upload, no rebuild). */
  setMultiplier(value: number | readonly number[]): void {
    const weight = this.multiplierWeight ?? this.unbuilt();
    const values = this.perReplicaValues(value, 'multiplier');
    tf.tidy(() => {
      weight.write(tf.tensor(values, this.multiplierShape(), 'float32'));
    });
  }

  /**
   * λ ← λ · factor on the device, without reading λ back (n3fit's schedule step): one factor, or
   * one per replica for a per-replica λ.
   */
  scaleMultiplier(factor: number | readonly number[]): void {
    const weight = this.multiplierWeight ?? this.unbuilt();
    if (typeof factor === 'number') {
      const scale = finite(factor, 'factor');
      tf.tidy(() => {
        weight.write(tf.mul(weight.read(), scale));
      });
      return;
    }
    const factors = this.perReplicaValues(factor, 'factor');
    tf.tidy(() => {
      weight.write(tf.mul(weight.read(), tf.tensor(factors, this.multiplierShape(), 'float32')));
    });
  }

  /** The current λ, read back from the device (a sync: for logging, not every step). */
  multiplierValue(): number {
    return this.multiplier().dataSync()[0];
  }

  /**
   * λ as a tensor on the device, `(1)` or `(replicas, 1)`, e.g. to scale the columns of many
   * sets at once (see {@link LagrangePenalty.scaledTerms}).
   *
   * @throws InvalidArgumentError before the layer is built
   */
  multiplierTensor(): tf.Tensor {
    return this.multiplier();
  }

  /**
   * The terms whose sum over data is the penalty, of predictions already multiplied by λ,
   * element by element: what {@link LagrangePenalty.call} sums, for callers that scale the
   * columns of several sets each by its own λ and sum each set's columns themselves.
   *
   * @param scaled - λ · predictions, `(replicas, data)`
   * @returns `(replicas, data)`
   */
  scaledTerms(scaled: tf.Tensor2D): tf.Tensor2D {
    return this.terms(scaled) as tf.Tensor2D;
  }

  /** Whether `other` computes the same terms of scaled predictions (its λ may differ). */
  hasSameTerms(other: LagrangePenalty): boolean {
    return other.getClassName() === this.getClassName();
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      multiplier: this.perReplica ? [...this.initialMultipliers] : this.initialMultiplier,
    };
  }

  /** The penalty terms `(replicas, data)` of the scaled predictions λ·y. */
  protected abstract terms(scaled: tf.Tensor): tf.Tensor;

  private multiplierShape(): number[] {
    return this.perReplica ? [this.initialMultipliers.length, 1] : [1];
  }

  /** `value` as the weight's values: one per replica for a per-replica λ (a number for all). */
  private perReplicaValues(value: number | readonly number[], argument: string): number[] {
    const expected = this.initialMultipliers.length;
    const values =
      typeof value === 'number' ? Array.from({ length: expected }, () => value) : [...value];
    if (values.length !== expected) {
      throw new InvalidArgumentError({
        argument,
        problem: `expected ${expected} value(s), one per replica, got ${values.length}`,
      });
    }
    return values.map((v, r) => finite(v, expected === 1 ? argument : `${argument}[${r}]`));
  }

  private multiplier(): tf.Tensor {
    return (this.multiplierWeight ?? this.unbuilt()).read();
  }

  private unbuilt(): never {
    throw new InvalidArgumentError({ argument: this.name, problem: 'the layer is not built yet' });
  }
}

/**
 * n3fit's positivity penalty per replica: Σ_i elu(−λ·y_i; α), with the multiplier applied first
 * (`LossPositivity`): λ·|y_i| for negative predictions, α(e^{−λ y_i} − 1) ≥ −α for positive ones.
 * Input `(replicas, data)` → `(replicas)`.
 */
export class PositivityLoss extends LagrangePenalty {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitPositivity';
  /** α of the elu. */
  readonly alpha: number;

  constructor(args: PositivityLossArgs) {
    super(args);
    this.alpha = finite(args.alpha ?? POSITIVITY_ELU_ALPHA, 'alpha');
  }

  /** elu(−λy) = relu(z) + α(e^{min(z, 0)} − 1) with z = −λy: no e^z overflow for large z. */
  protected terms(scaled: tf.Tensor): tf.Tensor {
    const z = tf.neg(scaled);
    return tf.add(tf.relu(z), tf.mul(tf.sub(tf.exp(tf.minimum(z, 0)), 1), this.alpha));
  }

  override hasSameTerms(other: LagrangePenalty): boolean {
    return other instanceof PositivityLoss && other.alpha === this.alpha;
  }

  override getConfig(): tf.serialization.ConfigDict {
    return { ...super.getConfig(), alpha: this.alpha };
  }
}
tf.serialization.registerClass(PositivityLoss);

/**
 * n3fit's integrability penalty per replica: Σ_i (λ·y_i)², the multiplier applied before
 * squaring as in `LossIntegrability`. Input `(replicas, data)` → `(replicas)`.
 */
export class IntegrabilityLoss extends LagrangePenalty {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitIntegrability';

  protected terms(scaled: tf.Tensor): tf.Tensor {
    return tf.square(scaled);
  }
}
tf.serialization.registerClass(IntegrabilityLoss);

/** A {@link PositivityLoss}: predictions `(replicas, data)` → penalty `(replicas)`. */
export function positivityLoss(args: PositivityLossArgs = {}): PositivityLoss {
  return new PositivityLoss(args);
}

/** An {@link IntegrabilityLoss}: predictions `(replicas, data)` → penalty `(replicas)`. */
export function integrabilityLoss(args: LagrangePenaltyArgs = {}): IntegrabilityLoss {
  return new IntegrabilityLoss(args);
}

function finite(value: number, argument: string): number {
  if (!Number.isFinite(value)) {
    throw new InvalidArgumentError({ argument, problem: `expected a finite number, got ${value}` });
  }
  return value;
}

function penaltyShape(inputShape: tfl.Shape | tfl.Shape[], name: string): tfl.Shape {
  const shape = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tfl.Shape;
  if (shape.length !== 2) {
    throw new ShapeError({
      quantity: `${name}: predictions`,
      expected: [null, null],
      actual: shape.map((size) => size ?? -1),
      axes: '(replicas, data)',
    });
  }
  return shape;
}
