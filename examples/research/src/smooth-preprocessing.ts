import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError } from '@partonfit/core';
import { initialExponents, type PreprocessingFlavour } from '@partonfit/layers';

/** Arguments of {@link SmoothPreprocessing}. */
export interface SmoothPreprocessingArgs {
  /** The fitted flavours in network-output order, with their ranges (`fitting.basis`). */
  readonly flavours: readonly PreprocessingFlavour[];
  /** One seed per replica, `(replicas)`: replica r starts where the stock layer would. */
  readonly seeds: readonly number[];
  /** The layer's name. */
  readonly name?: string;
}

/** logit(u) for u in (0, 1), kept finite at the ends of the range. */
function logit(u: number): number {
  const clamped = Math.min(Math.max(u, 1e-6), 1 - 1e-6);
  return Math.log(clamped / (1 - clamped));
}

/**
 * A research variant of `Preprocessing`: the same prefactor x^(1−α) · (1−x)^β, but every
 * exponent is trainable and stays inside its runcard range through a sigmoid,
 * α = low + (high − low) · sigmoid(a), instead of being clipped back after each step.
 *
 * Input: x `(points, 1)`. Output: `(replicas, points, flavours)`.
 * Weights: `alpha_logit` and `beta_logit`, `(replicas, flavours)`; replica r starts from the
 * exponents the stock layer draws from seed r (`initialExponents`).
 */
export class SmoothPreprocessing extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'ResearchSmoothPreprocessing';
  readonly flavours: readonly PreprocessingFlavour[];
  readonly seeds: readonly number[];
  private alphaLogit: tfl.LayerVariable | undefined;
  private betaLogit: tfl.LayerVariable | undefined;

  constructor(args: SmoothPreprocessingArgs) {
    super(args.name === undefined ? {} : { name: args.name });
    for (const flavour of args.flavours) {
      if (flavour.largex === undefined) {
        throw new InvalidArgumentError({
          argument: `flavours.${flavour.fl}.largex`,
          problem: 'is needed: this layer always has the (1 − x)^β factor',
        });
      }
    }
    this.flavours = args.flavours;
    this.seeds = args.seeds;
  }

  /** Each flavour's [low, high − low] for α or β, `(1, flavours)` each. */
  private ranges(kind: 'smallx' | 'largex'): [tf.Tensor2D, tf.Tensor2D] {
    const bounds = this.flavours.map((flavour) => flavour[kind] ?? [0, 0]);
    return [
      tf.tensor2d([bounds.map(([low]) => low)]),
      tf.tensor2d([bounds.map(([low, high]) => high - low)]),
    ];
  }

  override build(): void {
    const replicas = this.seeds.length;
    const start = this.seeds.map((seed) => initialExponents(this.flavours, seed, true));
    const weight = (name: string, kind: 'alpha' | 'beta') => {
      const range = kind === 'alpha' ? 'smallx' : 'largex';
      const logits = start.map((exponents) =>
        this.flavours.map((flavour, f) => {
          const [low, high] = flavour[range] ?? [0, 1];
          return logit((exponents[kind][f] - low) / (high - low));
        }),
      );
      const shape = [replicas, this.flavours.length];
      const variable = this.addWeight(name, shape, 'float32', tfl.initializers.zeros());
      tf.tidy(() => {
        variable.write(tf.tensor2d(logits));
      });
      return variable;
    };
    this.alphaLogit = weight('alpha_logit', 'alpha');
    this.betaLogit = weight('beta_logit', 'beta');
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    const x = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tfl.Shape;
    return [this.seeds.length, x[0] ?? null, this.flavours.length];
  }

  /**
   * @param inputs - x `(points, 1)`, each in (0, 1]
   * @returns `x^(1 − α) (1 − x)^β`, `(replicas, points, flavours)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor3D {
    return tf.tidy(() => {
      const x = (Array.isArray(inputs) ? inputs[0] : inputs) as tf.Tensor2D;
      if (this.alphaLogit === undefined || this.betaLogit === undefined) {
        throw new InvalidArgumentError({ argument: this.name, problem: 'is not built' });
      }
      const bounded = (logits: tf.Tensor, [low, width]: [tf.Tensor2D, tf.Tensor2D]) =>
        tf.expandDims(tf.add(low, tf.mul(width, tf.sigmoid(logits))), 1); // (replicas, 1, flavours)
      const alpha = bounded(this.alphaLogit.read(), this.ranges('smallx'));
      const beta = bounded(this.betaLogit.read(), this.ranges('largex'));
      const logX = tf.reshape(tf.log(x), [1, -1, 1]); // (1, points, 1)
      const logOneMinusX = tf.reshape(tf.log(tf.maximum(tf.sub(1, x), 1e-30)), [1, -1, 1]);
      return tf.exp(tf.add(tf.mul(logX, tf.sub(1, alpha)), tf.mul(logOneMinusX, beta)));
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      flavours: this.flavours.map(({ fl, smallx, largex }) => ({
        fl,
        smallx: [...smallx],
        largex: [...(largex ?? [])],
      })),
      seeds: [...this.seeds],
    };
  }
}

tf.serialization.registerClass(SmoothPreprocessing);
