import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import {
  EVOLUTION_BASIS_SIZE,
  evolutionIndex,
  InvalidArgumentError,
  oneOf,
  ShapeError,
} from '@partonfit/core';
import { withCustomGrad, type LayerArgs } from '../ops/index.js';
import {
  integrationGrid,
  type IntegrationGrid,
  type IntegrationGridSpec,
} from './integration-grid.js';
import {
  checkSumRuleMode,
  INTEGRATED_WITHOUT_X,
  sumRuleMatrices,
  type SumRuleMode,
} from './sum-rules.js';
import { singleInput, singleShape } from '../multi-dense/layer-input.js';

/** Which points {@link SumRuleNormalisation} returns: `fit` or `all`. */
export type SumRuleOutputPoints = 'fit' | 'all';

const OUTPUT_POINTS: readonly SumRuleOutputPoints[] = ['fit', 'all'];

/** Arguments of {@link SumRuleNormalisation}. */
export interface SumRuleNormalisationArgs extends LayerArgs {
  /** The sum rules to impose; default `ALL` (momentum and valence). */
  readonly mode?: SumRuleMode;
  /** The integration grid, or how to make it; it is stored in the config as its spec. */
  readonly grid: IntegrationGrid | IntegrationGridSpec;
  /** Where the integration points start along the points axis of the input. */
  readonly integrationOffset: number;
  /**
   * `fit` (default): return the normalised PDF on the points before the integration grid,
   * `[0, integrationOffset)`; `all`: on every input point.
   */
  readonly outputPoints?: SumRuleOutputPoints;
}

/**
 * Sum-rule normalisation of every replica: integrates the unnormalised PDF over the integration
 * grid, computes the factors A `(replicas, 1, 14)` (see `SUM_RULES`) and returns the PDF times
 * A.
 *
 * Input: the unnormalised PDF `(replicas, points, 14)` evaluated ONCE on the concatenation
 * `[fit points…, integration grid…, anything else…]`, the integration grid being the contiguous
 * block `[integrationOffset, integrationOffset + gridPoints)`. Output: `(replicas,
 * integrationOffset, 14)` (`outputPoints: 'fit'`) or `(replicas, points, 14)` (`'all'`).
 *
 * Integrals: I[r, f] = Σ_i w_i · x_i^(−1 if f ∈ {V, V3, V8, V15} else 0) · pdf[r, offset + i, f],
 * an elementwise product with a constant `(grid, 14)` weight table and a sum over the grid;
 * the integration block and the fit block are each one `slice` (not a gather). The photon
 * integral enters the momentum sum rule from the photon column of the input, which is zero
 * unless a photon has been put into the PDF.
 *
 * How the trainer uses it: build the x points as `[fit x-grid, grid.x]` (plus x = 1 at the end
 * with feature scaling), run the network, preprocessing and rotation on all of them, then this
 * layer with `integrationOffset` = the number of fit points; the observables read its output.
 */
export class SumRuleNormalisation extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitSumRules';
  /** The sum rules imposed. */
  readonly mode: SumRuleMode;
  /** The integration grid. */
  readonly grid: IntegrationGrid;
  /** Start of the integration block along the points axis. */
  readonly integrationOffset: number;
  /** Which points are returned. */
  readonly outputPoints: SumRuleOutputPoints;
  private constants: tf.Tensor[] = [];

  constructor(args: SumRuleNormalisationArgs) {
    super(args);
    this.mode = checkSumRuleMode(args.mode ?? 'ALL');
    this.grid = 'spec' in args.grid ? args.grid : integrationGrid(args.grid);
    this.outputPoints = oneOf(args.outputPoints ?? 'fit', OUTPUT_POINTS, 'outputPoints', {
      loose: true,
    });
    const minimum = this.outputPoints === 'fit' ? 1 : 0;
    if (!Number.isInteger(args.integrationOffset) || args.integrationOffset < minimum) {
      throw new InvalidArgumentError({
        argument: 'integrationOffset',
        problem: `expected an integer of at least ${minimum}, got ${args.integrationOffset}`,
      });
    }
    this.integrationOffset = args.integrationOffset;
  }

  /** Number of integration points. */
  get gridPoints(): number {
    return this.grid.x.length;
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    this.checkInput(inputShape);
    this.disposeConstants();
    const matrices = sumRuleMatrices(this.mode);
    const weights = new Float32Array(this.gridPoints * EVOLUTION_BASIS_SIZE);
    const withoutX = new Set(INTEGRATED_WITHOUT_X.map(evolutionIndex));
    for (let i = 0; i < this.gridPoints; i++) {
      for (let f = 0; f < EVOLUTION_BASIS_SIZE; f++) {
        const weight = this.grid.weights[i] ?? 0;
        weights[i * EVOLUTION_BASIS_SIZE + f] = withoutX.has(f)
          ? weight / (this.grid.x[i] ?? 1)
          : weight;
      }
    }
    const size = EVOLUTION_BASIS_SIZE;
    this.constants = [
      tf.tensor3d(weights, [1, this.gridPoints, size]),
      tf.tensor1d(matrices.numeratorConstant),
      tf.tensor2d(matrices.numeratorMatrix, [size, size]),
      tf.tensor1d(matrices.denominatorConstant),
      tf.tensor2d(matrices.denominatorMatrix, [size, size]),
    ].map((tensor) => tf.keep(tensor));
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    const [replicas, points] = this.checkInput(inputShape);
    return [
      replicas ?? null,
      this.outputPoints === 'fit' ? this.integrationOffset : (points ?? null),
      EVOLUTION_BASIS_SIZE,
    ];
  }

  /**
   * @param inputs - the unnormalised PDF `(replicas, points, 14)`
   * @returns the normalised PDF `(replicas, integrationOffset, 14)`, or `(replicas, points,
   *   14)` with `outputPoints: 'all'`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor3D {
    return tf.tidy(() => {
      const pdf = singleInput(inputs, this.name) as tf.Tensor3D;
      this.checkInput(pdf.shape);
      if (this.constants.length === 0) this.build(pdf.shape);
      if (this.mode === 'NONE') return this.outputBlock(pdf);
      return this.normalise(pdf) as tf.Tensor3D;
    });
  }

  /**
   * The factors A of every replica and flavour, 1 for flavours without a sum rule.
   *
   * @param pdf - the unnormalised PDF `(replicas, points, 14)` with the integration block
   * @returns `(replicas, 1, 14)`
   */
  normalisationFactors(pdf: tf.Tensor3D): tf.Tensor3D {
    return tf.tidy(() => {
      this.checkInput(pdf.shape);
      if (this.constants.length === 0) this.build(pdf.shape);
      return this.factorTerms(pdf).factors;
    });
  }

  /** The returned points of the unnormalised PDF: `(replicas, returned points, 14)`. */
  private outputBlock(pdf: tf.Tensor3D): tf.Tensor3D {
    const points = this.outputPoints === 'fit' ? this.integrationOffset : pdf.shape[1];
    return points === pdf.shape[1] ? pdf : tf.slice(pdf, [0, 0, 0], [-1, points, -1]);
  }

  /**
   * The factors A = N / D `(replicas, 1, 14)` and their denominators D `(replicas, 1, 14)`, from
   * the integrals I `(replicas, 14)`: N = n + I·M_N, D = d + I·M_D (see `sumRuleMatrices`).
   */
  private factorTerms(pdf: tf.Tensor3D): { factors: tf.Tensor3D; denominator: tf.Tensor3D } {
    const [weights, numeratorConstant, numeratorMatrix, denominatorConstant, denominatorMatrix] =
      this.constants as [tf.Tensor3D, tf.Tensor1D, tf.Tensor2D, tf.Tensor1D, tf.Tensor2D];
    const shape: [number, number, number] = [pdf.shape[0], 1, EVOLUTION_BASIS_SIZE];
    const block = tf.slice(pdf, [0, this.integrationOffset, 0], [-1, this.gridPoints, -1]);
    const integrals = tf.sum<tf.Tensor2D>(tf.mul(block, weights), 1);
    const numerator = tf.add(numeratorConstant, tf.matMul(integrals, numeratorMatrix));
    const denominator = tf.add(denominatorConstant, tf.matMul(integrals, denominatorMatrix));
    return {
      factors: tf.reshape(tf.div(numerator, denominator), shape),
      denominator: tf.reshape(denominator, shape),
    };
  }

  /**
   * The returned points times A, with its gradient written out: the points' own part dy·A, and
   * the integration block's part through A, dI = (dA / D)·M_Nᵀ − (dA·A / D)·M_Dᵀ with
   * dA = Σ_points dy·pdf, spread over the block by the integration weights. The backward keeps
   * the constants it needs (a model's layer for other x may be disposed before it runs).
   */
  private readonly normalise = withCustomGrad(([pdf], save) => {
    const input = pdf as tf.Tensor3D;
    const { factors, denominator } = this.factorTerms(input);
    const output = this.outputBlock(input);
    const [weights, , numeratorMatrix, , denominatorMatrix] = this.constants;
    save([output, factors, denominator, weights, numeratorMatrix, denominatorMatrix]);
    return {
      value: tf.mul(output, factors),
      gradFunc: (dy, saved) => this.normalisationGradient(dy, saved, input.shape),
    };
  });

  /**
   * @param saved - the returned points, A and D `(replicas, 1, 14)`, the integration weights,
   *   M_N and M_D
   */
  private normalisationGradient(
    dy: tf.Tensor,
    saved: tf.Tensor[],
    shape: readonly number[],
  ): tf.Tensor {
    const [output, factors, denominator, weights, numeratorMatrix, denominatorMatrix] = saved as [
      tf.Tensor3D,
      tf.Tensor3D,
      tf.Tensor3D,
      tf.Tensor3D,
      tf.Tensor2D,
      tf.Tensor2D,
    ];
    const [replicas, points] = [shape[0] ?? 0, shape[1] ?? 0];
    const flat: [number, number] = [replicas, EVOLUTION_BASIS_SIZE];
    const dNumerator = tf.reshape<tf.Rank.R2>(
      tf.div(tf.sum(tf.mul(dy, output), 1, true), denominator),
      flat,
    );
    const minusDDenominator = tf.mul(dNumerator, tf.reshape(factors, flat));
    const dIntegrals = tf.sub(
      tf.matMul(dNumerator, numeratorMatrix, false, true),
      tf.matMul(minusDDenominator, denominatorMatrix, false, true),
    );
    const dBlock = tf.mul(tf.reshape(dIntegrals, [replicas, 1, EVOLUTION_BASIS_SIZE]), weights);
    const dOutput = tf.mul(dy, factors);
    const after = points - this.integrationOffset - this.gridPoints;
    if (this.outputPoints === 'all') {
      return tf.add(
        dOutput,
        tf.pad(dBlock, [
          [0, 0],
          [this.integrationOffset, after],
          [0, 0],
        ]),
      );
    }
    const rest = after > 0 ? [tf.zeros([replicas, after, EVOLUTION_BASIS_SIZE])] : [];
    return tf.concat([dOutput, dBlock, ...rest], 1);
  }

  override getConfig(): tf.serialization.ConfigDict {
    const spec = this.grid.spec;
    return {
      ...super.getConfig(),
      mode: this.mode,
      grid:
        spec.kind === 'custom'
          ? { kind: 'custom', x: [...spec.x], weights: [...spec.weights] }
          : spec.kind === 'nnpdf'
            ? { kind: 'nnpdf', points: spec.points }
            : {
                kind: 'gauss-legendre',
                points: spec.points,
                smallXPoints: spec.smallXPoints ?? null,
              },
      integrationOffset: this.integrationOffset,
      outputPoints: this.outputPoints,
    };
  }

  /** Rebuilds the layer from {@link SumRuleNormalisation.getConfig}. */
  static override fromConfig<T extends tf.serialization.Serializable>(
    cls: tf.serialization.SerializableConstructor<T>,
    config: tf.serialization.ConfigDict,
  ): T {
    const grid = config.grid as tf.serialization.ConfigDict;
    const spec =
      grid.kind === 'gauss-legendre' && grid.smallXPoints === null
        ? { kind: grid.kind, points: grid.points }
        : grid;
    return new cls({ ...config, grid: spec });
  }

  override dispose(): ReturnType<tfl.layers.Layer['dispose']> {
    const result = super.dispose();
    if (result.refCountAfterDispose === 0) this.disposeConstants();
    return result;
  }

  private disposeConstants(): void {
    for (const tensor of this.constants) tensor.dispose();
    this.constants = [];
  }

  private checkInput(inputShape: tfl.Shape | tfl.Shape[] | readonly number[]): tfl.Shape {
    const shape = singleShape(inputShape);
    const needed = this.integrationOffset + this.gridPoints;
    const points = shape[1];
    if (
      shape.length !== 3 ||
      shape[2] !== EVOLUTION_BASIS_SIZE ||
      (points !== null && points < needed)
    ) {
      throw new ShapeError({
        quantity: `${this.name} input pdf`,
        expected: [null, needed, EVOLUTION_BASIS_SIZE],
        actual: shape.map((size) => size ?? -1),
        axes: `(replicas, points ≥ ${needed}, 14): the integration grid is read at points [${this.integrationOffset}, ${needed})`,
      });
    }
    return shape;
  }
}

tf.serialization.registerClass(SumRuleNormalisation);

/**
 * A {@link SumRuleNormalisation} layer (tfjs-style factory): the unnormalised PDF
 * `(replicas, points, 14)` → the normalised PDF `(replicas, integrationOffset, 14)`.
 */
export function sumRuleNormalisation(args: SumRuleNormalisationArgs): SumRuleNormalisation {
  return new SumRuleNormalisation(args);
}
