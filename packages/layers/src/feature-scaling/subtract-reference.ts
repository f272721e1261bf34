import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import type { LayerArgs } from '../ops/index.js';
import { singleInput, singleShape } from '../multi-dense/layer-input.js';

/** Arguments of {@link SubtractReference}. */
export interface SubtractReferenceArgs extends LayerArgs {
  /** The position along the points axis of the reference point (x = 1 with feature scaling). */
  readonly referencePoint: number;
}

/**
 * Subtracts every replica's network output at one reference point from its output at all
 * points: `NN[r, p, f] − NN[r, ref, f]`. With feature scaling the reference is x = 1, so that
 * the PDF vanishes there (upstream's `subtract_one`, which replaces the (1 − x)^β factor).
 *
 * Input: `(replicas, points, flavours)`, the network output on points that include the
 * reference (the trainer appends x = 1 to the x points when it is not already one of them).
 * Output: the same shape; the reference point itself becomes 0.
 */
export class SubtractReference extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitSubtractReference';
  /** The reference point's position along the points axis. */
  readonly referencePoint: number;

  constructor(args: SubtractReferenceArgs) {
    super(args);
    if (!Number.isInteger(args.referencePoint) || args.referencePoint < 0) {
      throw new InvalidArgumentError({
        argument: 'referencePoint',
        problem: `expected a non-negative integer, got ${args.referencePoint}`,
      });
    }
    this.referencePoint = args.referencePoint;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    return this.checkInput(inputShape);
  }

  /**
   * @param inputs - `(replicas, points, flavours)`
   * @returns `(replicas, points, flavours)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor3D {
    return tf.tidy(() => {
      const output = singleInput(inputs, this.name) as tf.Tensor3D;
      this.checkInput(output.shape);
      return tf.sub(output, tf.slice(output, [0, this.referencePoint, 0], [-1, 1, -1]));
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return { ...super.getConfig(), referencePoint: this.referencePoint };
  }

  private checkInput(inputShape: tfl.Shape | tfl.Shape[] | readonly number[]): tfl.Shape {
    const shape = singleShape(inputShape);
    const points = shape[1];
    if (shape.length !== 3 || (typeof points === 'number' && points <= this.referencePoint)) {
      throw new ShapeError({
        quantity: `${this.name} input`,
        expected: [null, this.referencePoint + 1, null],
        actual: shape.map((size) => size ?? -1),
        axes: `(replicas, points > ${this.referencePoint}, flavours)`,
      });
    }
    return [...shape];
  }
}

tf.serialization.registerClass(SubtractReference);

/**
 * A {@link SubtractReference} layer (tfjs-style factory): `(replicas, points, flavours)` →
 * the same, minus the values at `referencePoint`.
 */
export function subtractReference(args: SubtractReferenceArgs): SubtractReference {
  return new SubtractReference(args);
}
