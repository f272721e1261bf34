import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { checkSeed } from '../multi-dense/initializers.js';
import type { LayerArgs } from '../ops/index.js';
import {
  checkPreprocessingFlavours,
  initialExponents,
  type PreprocessingFlavour,
} from './exponents.js';
import { singleInput, singleShape } from '../multi-dense/layer-input.js';

/** Arguments of {@link Preprocessing}. */
export interface PreprocessingArgs extends LayerArgs {
  /** The fitted flavours in network-output order, with their ranges (`fitting.basis`). */
  readonly flavours: readonly PreprocessingFlavour[];
  /** One seed per replica, `(replicas)`; see {@link initialExponents} for the draw order. */
  readonly seeds: readonly number[];
  /**
   * Whether the large-x factor (1 − x)^β is on; default true. Off with feature scaling
   * (upstream `large_x=False`): β is then fixed at 0 and has no weight.
   */
  readonly largeX?: boolean;
}

/**
 * log(1 − x) is clamped here at x = 1, where it is −∞: (1 − x)^β then comes out as
 * exp(−10⁴·β), 0 in float32 for any β above 0.01, and β's gradient stays finite. For float32
 * x < 1, log(1 − x) ≥ log(2⁻²⁴) ≈ −16.6, so no other point is touched.
 */
export const LOG_ONE_MINUS_X_FLOOR = -1e4;

interface ExponentWeight {
  readonly variable: tfl.LayerVariable;
  readonly range: readonly [number, number];
  readonly trainable: boolean;
}

/**
 * The preprocessing prefactor of every replica and fitted flavour,
 * `x^(1 − α[r,f]) · (1 − x)^β[r,f]`, to multiply the network output `(replicas, points, F)`.
 *
 * Input: x `(points, 1)`, shared by all replicas. Output: `(replicas, points, flavours)`.
 *
 * Weights, as upstream: `alpha_<fl>` and `beta_<fl>` of shape `(replicas, 1)` per flavour
 * (`beta_*` only with large-x on), trainable or not per flavour, so a non-trainable flavour is
 * never seen by an optimiser and cannot move. Initial values are uniform in the runcard ranges
 * from each replica's own seed ({@link initialExponents}).
 *
 * Trainable exponents are kept in their ranges by {@link Preprocessing.clipToRanges}, which
 * the trainer calls after every optimiser step (upstream's `MinMaxWeight` constraint; tfjs
 * optimisers do not apply constraints themselves).
 *
 * Computed as exp([log x, log(1 − x)] @ [1 − α; β]): one plain 2-D product `(points, 2) @
 * (2, replicas·flavours)`, an exponential and a transpose to `(replicas, points, flavours)`.
 * Broadcasting `tf.pow` of `(1, points, 1)` against `(replicas, 1, flavours)` instead cost
 * 286 ms per forward pass on wasm at 100 replicas × 1,600 points, this 28 ms. At x = 1 (the end
 * of the integration grid) log(1 − x) is clamped (see `LOG_ONE_MINUS_X_FLOOR`), so the factor is
 * 0 and no gradient is NaN.
 */
export class Preprocessing extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitPreprocessing';
  /** The fitted flavours and their ranges. */
  readonly flavours: readonly PreprocessingFlavour[];
  /** The per-replica seeds, `(replicas)`. */
  readonly seeds: readonly number[];
  /** Whether the (1 − x)^β factor is on. */
  readonly largeX: boolean;
  private alphas: ExponentWeight[] = [];
  private betas: ExponentWeight[] = [];
  /** The last prefactor with no trainable exponent, and the data of the x and exponents it is of. */
  private cached: { readonly key: readonly object[]; readonly prefactor: tf.Tensor3D } | undefined;

  constructor(args: PreprocessingArgs) {
    super(args);
    const largeX = args.largeX ?? true;
    checkPreprocessingFlavours(args.flavours, largeX);
    if (args.seeds.length === 0) {
      throw new InvalidArgumentError({
        argument: 'seeds',
        problem: 'expected one seed per replica, got none',
      });
    }
    args.seeds.forEach((seed, replica) => {
      checkSeed(seed, `seeds[${replica}]`);
    });
    this.flavours = args.flavours.map((flavour) => ({
      fl: flavour.fl,
      smallx: [flavour.smallx[0], flavour.smallx[1]],
      largex: flavour.largex === undefined ? undefined : [flavour.largex[0], flavour.largex[1]],
      trainable: flavour.trainable ?? true,
    }));
    this.seeds = [...args.seeds];
    this.largeX = largeX;
  }

  /** Number of replicas. */
  get replicas(): number {
    return this.seeds.length;
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    checkInputShape(inputShape, this.name);
    const initial = this.seeds.map((seed) => initialExponents(this.flavours, seed, this.largeX));
    const weight = (kind: 'alpha' | 'beta', f: number, range: readonly [number, number]) => {
      const flavour = this.flavours[f];
      const trainable = flavour.trainable ?? true;
      const variable = this.addWeight(
        `${kind}_${flavour.fl}`,
        [this.replicas, 1],
        'float32',
        tfl.initializers.zeros(),
        undefined,
        trainable,
      );
      tf.tidy(() => {
        variable.write(
          tf.tensor2d(
            initial.map((replica) => [replica[kind][f]]),
            [this.replicas, 1],
          ),
        );
      });
      return { variable, range, trainable };
    };
    this.alphas = [];
    this.betas = [];
    this.flavours.forEach((flavour, f) => {
      this.alphas.push(weight('alpha', f, flavour.smallx));
      if (this.largeX) this.betas.push(weight('beta', f, flavour.largex ?? [0, 0]));
    });
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    const points = checkInputShape(inputShape, this.name);
    return [this.replicas, points, this.flavours.length];
  }

  /**
   * @param inputs - x `(points, 1)`, each in (0, 1]
   * @returns `x^(1 − α) (1 − x)^β`, `(replicas, points, flavours)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor3D {
    return tf.tidy(() => {
      const x = singleInput(inputs, this.name) as tf.Tensor2D;
      checkInputShape(x.shape, this.name);
      const weights = [...this.alphas, ...this.betas];
      const constant = !(this.trainable && weights.some((weight) => weight.variable.trainable));
      if (!constant) return this.prefactor(x);
      // No exponent is trained: the prefactor changes only with x or a written exponent.
      const key = [x.dataId, ...weights.map((weight) => weight.variable.read().dataId)];
      const cached = this.cached;
      if (cached?.key.length === key.length && cached.key.every((id, i) => id === key[i])) {
        return tf.clone(cached.prefactor);
      }
      const prefactor = this.prefactor(x);
      this.cached?.prefactor.dispose();
      this.cached = { key, prefactor: tf.keep(tf.clone(prefactor)) };
      return prefactor;
    });
  }

  /**
   * @param x - `(points, 1)`
   * @returns `x^(1 − α) (1 − x)^β`, `(replicas, points, flavours)`
   */
  private prefactor(x: tf.Tensor2D): tf.Tensor3D {
    return tf.tidy(() => {
      const points = x.shape[0];
      const flavours = this.flavours.length;
      // (R, F) → (1, R·F), replica-major like the columns of the product below.
      const row = (weights: readonly ExponentWeight[]) =>
        tf.reshape(
          tf.concat(
            weights.map((weight) => weight.variable.read()),
            1,
          ),
          [1, this.replicas * flavours],
        );
      const logs = this.largeX
        ? tf.concat([tf.log(x), tf.maximum(tf.log(tf.sub(1, x)), LOG_ONE_MINUS_X_FLOOR)], 1)
        : tf.log(x);
      const exponents = this.largeX
        ? tf.concat([tf.sub(1, row(this.alphas)), row(this.betas)], 0)
        : tf.sub(1, row(this.alphas));
      const flat = tf.exp(tf.matMul(logs, exponents));
      const perPoint = tf.reshape<tf.Rank.R3>(flat, [points, this.replicas, flavours]);
      return tf.transpose(perPoint, [1, 0, 2]);
    });
  }

  override dispose(): ReturnType<tfl.layers.Layer['dispose']> {
    const result = super.dispose();
    if (result.refCountAfterDispose === 0) {
      this.cached?.prefactor.dispose();
      this.cached = undefined;
    }
    return result;
  }

  /**
   * Clips every trainable exponent back into its runcard range. Call it after each optimiser
   * step; it reads nothing back to the host.
   */
  clipToRanges(): void {
    tf.tidy(() => {
      for (const weight of [...this.alphas, ...this.betas]) {
        if (!weight.trainable) continue;
        const [low, high] = weight.range;
        weight.variable.write(tf.clipByValue(weight.variable.read(), low, high));
      }
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      flavours: this.flavours.map((flavour) => ({
        fl: flavour.fl,
        smallx: [...flavour.smallx],
        largex: flavour.largex === undefined ? null : [...flavour.largex],
        trainable: flavour.trainable ?? true,
      })),
      seeds: [...this.seeds],
      largeX: this.largeX,
    };
  }

  /** Rebuilds the layer from {@link Preprocessing.getConfig}. */
  static override fromConfig<T extends tf.serialization.Serializable>(
    cls: tf.serialization.SerializableConstructor<T>,
    config: tf.serialization.ConfigDict,
  ): T {
    const flavours = (config.flavours as tf.serialization.ConfigDict[]).map((flavour) => ({
      ...flavour,
      largex: flavour.largex ?? undefined,
    }));
    return new cls({ ...config, flavours });
  }
}

tf.serialization.registerClass(Preprocessing);

/**
 * A {@link Preprocessing} layer (tfjs-style factory): x `(points, 1)` →
 * `(replicas, points, flavours)`.
 */
export function preprocessing(args: PreprocessingArgs): Preprocessing {
  return new Preprocessing(args);
}

function checkInputShape(
  inputShape: tfl.Shape | tfl.Shape[] | readonly number[],
  name: string,
): number | null {
  const shape = singleShape(inputShape);
  if (shape.length !== 2 || shape[1] !== 1) {
    throw new ShapeError({
      quantity: `${name} input x`,
      expected: [null, 1],
      actual: shape.map((size) => size ?? -1),
      axes: '(points, 1)',
    });
  }
  return shape[0] ?? null;
}
