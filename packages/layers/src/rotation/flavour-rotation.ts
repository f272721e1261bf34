import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import {
  EVOLUTION_BASIS_SIZE,
  findFitBasis,
  FIT_BASES,
  FIT_BASIS_NAMES,
  type FitBasisDefinition,
  fitBasisToEvolution,
  oneOf,
  ShapeError,
} from '@partonfit/core';
import { ConstantMatrix, type LayerArgs } from '../ops/index.js';
import { singleInput, singleShape } from '../multi-dense/layer-input.js';

/** Arguments of {@link FlavourRotation}. */
export interface FlavourRotationArgs extends LayerArgs {
  /** The fit basis (`fitting.fitbasis`): `EVOL`, `NN31IC`, `FLAVOUR` or `CCBAR_ASYMM`. */
  readonly fitBasis: string;
  /**
   * The fitted flavours in the order the network outputs them (the runcard's `fitting.basis`
   * order, by `fl` name); default the basis' own order. Must name every flavour once.
   */
  readonly flavours?: readonly string[];
}

/**
 * The rotation from the fitted flavours to the 14-flavour FK evolution basis
 * `[γ, Σ, g, V, V3, V8, V15, V24, V35, T3, T8, T15, T24, T35]`, core's
 * `fitBasisToEvolution` (upstream's `FlavourToEvolution` then `FkRotation` in one matrix).
 *
 * Input: `(replicas, points, fitted flavours)`. Output: `(replicas, points, 14)`.
 *
 * Computed as one plain 2-D product `(replicas·points, F) @ (F, 14)` with a constant matrix
 * and a custom gradient `dY @ M` (plain 2-D, the fast form on wasm); no weights.
 */
export class FlavourRotation extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitFlavourRotation';
  /** The fit basis. */
  readonly fitBasis: FitBasisDefinition;
  /** The fitted flavours in input order. */
  readonly flavours: readonly string[];
  /** The rotation, `(14, fitted flavours)` row-major float64: evolution = rotation · fitted. */
  readonly rotation: Float64Array;
  private matrix: ConstantMatrix | undefined;

  constructor(args: FlavourRotationArgs) {
    super(args);
    const basis =
      findFitBasis(args.fitBasis) ??
      FIT_BASES[oneOf(args.fitBasis, FIT_BASIS_NAMES, 'fitBasis', { loose: true })];
    const sameName = (name: string) =>
      basis.flavours.find((flavour) => flavour.toLowerCase() === name.toLowerCase()) ?? name;
    this.fitBasis = basis;
    this.flavours = (args.flavours ?? basis.flavours).map(sameName);
    this.rotation = fitBasisToEvolution(basis, this.flavours).data;
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    this.checkInput(inputShape);
    const fitted = this.flavours.length;
    const transposed = new Float32Array(fitted * EVOLUTION_BASIS_SIZE);
    for (let e = 0; e < EVOLUTION_BASIS_SIZE; e++) {
      for (let f = 0; f < fitted; f++)
        transposed[f * EVOLUTION_BASIS_SIZE + e] = this.rotation[e * fitted + f] ?? 0;
    }
    this.matrix?.dispose();
    this.matrix = ConstantMatrix.fromArray(transposed, fitted, EVOLUTION_BASIS_SIZE);
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    const shape = this.checkInput(inputShape);
    return [shape[0] ?? null, shape[1] ?? null, EVOLUTION_BASIS_SIZE];
  }

  /**
   * @param inputs - `(replicas, points, fitted flavours)`
   * @returns `(replicas, points, 14)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor3D {
    return tf.tidy(() => {
      const pdf = singleInput(inputs, this.name) as tf.Tensor3D;
      const [replicas, points] = this.checkInput(pdf.shape) as [number, number, number];
      if (this.matrix === undefined) this.build(pdf.shape);
      const flat = tf.reshape<tf.Rank.R2>(pdf, [replicas * points, this.flavours.length]);
      const rotated = (this.matrix as ConstantMatrix).multiply(flat);
      return tf.reshape<tf.Rank.R3>(rotated, [replicas, points, EVOLUTION_BASIS_SIZE]);
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return { ...super.getConfig(), fitBasis: this.fitBasis.name, flavours: [...this.flavours] };
  }

  override dispose(): ReturnType<tfl.layers.Layer['dispose']> {
    const result = super.dispose();
    if (result.refCountAfterDispose === 0) {
      this.matrix?.dispose();
      this.matrix = undefined;
    }
    return result;
  }

  private checkInput(inputShape: tfl.Shape | tfl.Shape[] | readonly number[]): tfl.Shape {
    const shape = singleShape(inputShape);
    if (shape.length !== 3 || shape[2] !== this.flavours.length) {
      throw new ShapeError({
        quantity: `${this.name} input`,
        expected: [null, null, this.flavours.length],
        actual: shape.map((size) => size ?? -1),
        axes: `(replicas, points, fitted flavours ${this.flavours.join(', ')})`,
      });
    }
    return shape;
  }
}

tf.serialization.registerClass(FlavourRotation);

/**
 * A {@link FlavourRotation} layer (tfjs-style factory): `(replicas, points, F)` →
 * `(replicas, points, 14)`.
 */
export function flavourRotation(args: FlavourRotationArgs): FlavourRotation {
  return new FlavourRotation(args);
}
