import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type Chi2Structure, type EigenbasisChi2 } from '@partonfit/core';
import { ConstantMatrix } from '../ops/index.js';
import { sharedRotationChi2s, type SharedRotationBlockTensors } from './chi2-forms.js';

function sameArray(a: Float32Array, b: Float32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether eigenbasis χ² structures can be computed together by {@link SharedRotationChi2s}:
 * all eigenbasis, with the same data size, replicas and blocks (offsets, sizes, modes and
 * rotations, value for value), so that they differ only in their mode weights.
 */
export function shareRotations(structures: readonly Chi2Structure[]): boolean {
  if (structures.length === 0) return false;
  const [first, ...others] = structures;
  if (first.kind !== 'eigenbasis') return false;
  return others.every(
    (other) =>
      other.kind === 'eigenbasis' &&
      other.ndata === first.ndata &&
      other.replicas === first.replicas &&
      other.blocks.length === first.blocks.length &&
      other.blocks.every((block, b) => {
        const reference = first.blocks[b];
        return (
          block.offset === reference.offset &&
          block.size === reference.size &&
          block.modes === reference.modes &&
          sameArray(block.rotation, reference.rotation)
        );
      }),
  );
}

/**
 * Several χ² of the same data read off the same predictions whose eigenbasis structures share
 * their blocks and rotations (see {@link shareRotations}) — a fit's training and validation χ²
 * in the diagonal basis — computed in one pass: the residuals, each block's rotation and the
 * squared modes once, weighted by every structure's mode weights together
 * (`sharedRotationChi2s`). Each χ² equals what a `Chi2Loss` of its structure and the same data
 * gives, up to float32 rounding.
 *
 * Owns its constants: call {@link SharedRotationChi2s.dispose} when done.
 */
export class SharedRotationChi2s {
  /** Number of χ² computed. */
  readonly count: number;
  private readonly ndata: number;
  private readonly data: tf.Tensor2D;
  private readonly weights: tf.Tensor3D;
  private readonly rotations: ConstantMatrix[];
  private readonly blocks: SharedRotationBlockTensors[];

  /**
   * @param structures - eigenbasis structures that share their rotations
   * @param data - the data the predictions are compared with, `(data replicas, data)` row-major
   *   (one row shared by all replicas, or one per replica)
   * @throws InvalidArgumentError for structures that do not share their rotations, or data
   *   that is not a whole number of rows
   */
  constructor(structures: readonly EigenbasisChi2[], data: Float32Array) {
    if (!shareRotations(structures)) {
      throw new InvalidArgumentError({
        argument: 'structures',
        problem: 'expected eigenbasis structures with the same blocks and rotations',
      });
    }
    const first = structures[0];
    const { ndata, replicas } = first;
    if (data.length === 0 || data.length % ndata !== 0) {
      throw new InvalidArgumentError({
        argument: 'data',
        problem: `length ${data.length} is not a whole number of rows of ${ndata}`,
      });
    }
    this.count = structures.length;
    this.ndata = ndata;
    const modes = first.blocks.reduce((sum, block) => sum + block.modes, 0);
    const weights = new Float32Array(this.count * replicas * modes);
    structures.forEach((structure, k) => {
      let modeOffset = 0;
      for (const block of structure.blocks) {
        for (let r = 0; r < replicas; r++) {
          const row = block.weights.subarray(r * block.modes, (r + 1) * block.modes);
          weights.set(row, (k * replicas + r) * modes + modeOffset);
        }
        modeOffset += block.modes;
      }
    });
    this.data = tf.keep(tf.tensor2d(data, [data.length / ndata, ndata], 'float32'));
    this.weights = tf.keep(tf.tensor3d(weights, [this.count, replicas, modes], 'float32'));
    this.rotations = first.blocks.map((block) =>
      ConstantMatrix.fromArray(block.rotation, block.size, block.modes),
    );
    this.blocks = first.blocks.map((block, b) => ({
      offset: block.offset,
      size: block.size,
      modes: block.modes,
      rotation: this.rotations[b].value,
      rotationTransposed: this.rotations[b].transposed,
    }));
  }

  /**
   * @param predictions - `(replicas, data)`
   * @returns each structure's χ², `(replicas)`, in the order of the structures
   */
  apply(predictions: tf.Tensor2D): tf.Tensor1D[] {
    return tf.tidy(() => {
      const residuals = tf.sub<tf.Tensor2D>(this.data, predictions);
      const chi2s = sharedRotationChi2s(residuals, this.blocks, this.weights, this.ndata);
      return tf.unstack(chi2s) as tf.Tensor1D[];
    });
  }

  /** Releases the data, weights and rotations. */
  dispose(): void {
    this.data.dispose();
    this.weights.dispose();
    for (const rotation of this.rotations) rotation.dispose();
  }
}
