import * as tf from '@tensorflow/tfjs-core';
import { stagedSum, withCustomGrad } from '../ops/index.js';

/**
 * How a per-replica covariance block `(replicas, size, size)` multiplies the residuals:
 * - `batched`: one batched product `(replicas, 1, size) @ (replicas, size, size)`;
 * - `broadcast`: an elementwise product `(replicas, size, 1) ⊙ (replicas, size, size)` summed
 *   over the first data axis (a `(replicas, size, size)` temporary each step).
 * A shared block `(1, size, size)` is always one plain 2-D product.
 */
export type PerReplicaProduct = 'batched' | 'broadcast';

/** The per-replica products. */
export const PER_REPLICA_PRODUCTS: readonly PerReplicaProduct[] = ['batched', 'broadcast'];

/** A stretch of the data axis: a block (by index) or points no block counts. */
type Segment = { readonly block: number } | { readonly gap: number };

/** Where blocks sit on the data axis, for reassembling a gradient of the full residual. */
export function dataSegments(
  blocks: readonly { readonly offset: number; readonly size: number }[],
  ndata: number,
): Segment[] {
  const segments: Segment[] = [];
  let end = 0;
  blocks.forEach((block, index) => {
    if (block.offset > end) segments.push({ gap: block.offset - end });
    segments.push({ block: index });
    end = block.offset + block.size;
  });
  if (end < ndata) segments.push({ gap: ndata - end });
  return segments;
}

/** The per-block gradients laid out along the full data axis, zeros where no block counts. */
function assemble(segments: readonly Segment[], parts: readonly tf.Tensor2D[], replicas: number) {
  const pieces = segments.map((segment) =>
    'block' in segment ? parts[segment.block] : tf.zeros([replicas, segment.gap]),
  );
  return pieces.length === 1 ? (pieces[0] as tf.Tensor2D) : tf.concat(pieces, 1);
}

/** Each block's residuals `(replicas, size)`, in block order, from one split of the data axis. */
function blockResiduals(
  residuals: tf.Tensor,
  segments: readonly Segment[],
  blocks: readonly { readonly size: number }[],
): tf.Tensor2D[] {
  if (segments.length === 1) return [residuals as tf.Tensor2D];
  const sizes = segments.map((segment) =>
    'block' in segment ? blocks[segment.block].size : segment.gap,
  );
  const pieces = tf.split<tf.Tensor2D>(residuals, sizes, 1);
  return segments.flatMap((segment, i) => ('block' in segment ? [pieces[i]] : []));
}

/** Σ over all blocks' terms `(replicas, points)`, in stages (precise on wasm). */
function sumTerms(terms: tf.Tensor2D[]): tf.Tensor1D {
  return stagedSum(terms.length === 1 ? terms[0] : tf.concat(terms, 1)) as tf.Tensor1D;
}

/** A covariance block as {@link covarianceChi2} multiplies it. */
export interface CovarianceBlockTensors {
  /** First data point of the block. */
  readonly offset: number;
  /** Number of data points of the block. */
  readonly size: number;
  /** Symmetric weights `(replicas, size, size)` or `(1, size, size)`. */
  readonly weights: tf.Tensor3D;
}

/**
 * χ²_r = Σ_b res_{r,b} · W_{r,b} · res_{r,b} for residuals `(replicas, data)` → `(replicas)`.
 *
 * One custom gradient over the whole form: the forward computes v_b = W_b res_b (a plain 2-D
 * product for a shared block), the backward returns 2 v_b — exact for the symmetric weights the
 * layer stores — so no product runs in the backward pass.
 */
export function covarianceChi2(
  residuals: tf.Tensor2D,
  blocks: readonly CovarianceBlockTensors[],
  ndata: number,
  perReplica: PerReplicaProduct = 'batched',
): tf.Tensor1D {
  const segments = dataSegments(blocks, ndata);
  const form = withCustomGrad(([input], save) => {
    const replicas = input.shape[0];
    const parts = blockResiduals(input, segments, blocks);
    const products = parts.map((part, b) => weighted(part, blocks[b], replicas, perReplica));
    save(products);
    return {
      value: sumTerms(parts.map((part, b) => tf.mul(part, products[b]))),
      gradFunc: (dy, saved) => {
        const twice = tf.reshape(tf.mul(dy, 2), [-1, 1]);
        return assemble(
          segments,
          saved.map((product) => tf.mul(product, twice)),
          replicas,
        );
      },
    };
  });
  return form(residuals) as tf.Tensor1D;
}

function weighted(
  part: tf.Tensor2D,
  block: CovarianceBlockTensors,
  replicas: number,
  perReplica: PerReplicaProduct,
): tf.Tensor2D {
  const { size, weights } = block;
  if (weights.shape[0] === 1) return tf.matMul(part, tf.reshape<tf.Rank.R2>(weights, [size, size]));
  if (perReplica === 'batched') {
    return tf.reshape(tf.matMul(tf.reshape<tf.Rank.R3>(part, [replicas, 1, size]), weights), [
      replicas,
      size,
    ]);
  }
  return tf.sum(tf.mul(tf.reshape(part, [replicas, size, 1]), weights), 1);
}

/** An eigenbasis block as {@link eigenbasisChi2} multiplies it. */
export interface EigenbasisBlockTensors {
  /** First data point of the block. */
  readonly offset: number;
  /** Number of data points of the block. */
  readonly size: number;
  /** `(size, modes)`. */
  readonly rotation: tf.Tensor2D;
  /** `(modes, size)`, the rotation's transpose, for the backward pass. */
  readonly rotationTransposed: tf.Tensor2D;
  /** Mode weights `(replicas, modes)` or `(1, modes)`. */
  readonly weights: tf.Tensor2D;
}

/**
 * χ²_r = Σ_b Σ_k w_{r,b,k} ε_{r,b,k}² with ε_b = res_b @ rotation_b, for residuals
 * `(replicas, data)` → `(replicas)`.
 *
 * One custom gradient: the forward is one plain 2-D product per block; the backward is
 * `2 (w ⊙ ε_b) @ rotationᵀ_b`, a plain 2-D product with the stored transpose.
 */
export function eigenbasisChi2(
  residuals: tf.Tensor2D,
  blocks: readonly EigenbasisBlockTensors[],
  ndata: number,
): tf.Tensor1D {
  const segments = dataSegments(blocks, ndata);
  const form = withCustomGrad(([input], save) => {
    const replicas = input.shape[0];
    const rotated = blockResiduals(input, segments, blocks).map((part, b) =>
      tf.matMul(part, blocks[b].rotation),
    );
    const weighted = rotated.map((modes, b) => tf.mul(modes, blocks[b].weights));
    save(weighted);
    return {
      value: sumTerms(weighted.map((modes, b) => tf.mul(modes, rotated[b] as tf.Tensor2D))),
      gradFunc: (dy, saved) => {
        const twice = tf.reshape(tf.mul(dy, 2), [-1, 1]);
        return assemble(
          segments,
          saved.map((modes, b) =>
            tf.matMul(tf.mul<tf.Tensor2D>(modes, twice), blocks[b].rotationTransposed),
          ),
          replicas,
        );
      },
    };
  });
  return form(residuals) as tf.Tensor1D;
}

/**
 * One block of {@link sharedRotationChi2s}: its data and its rotation. The blocks' modes sit
 * side by side along the modes axis, in block order.
 */
export interface SharedRotationBlockTensors {
  readonly offset: number;
  readonly size: number;
  readonly modes: number;
  /** `(size, modes)`. */
  readonly rotation: tf.Tensor2D;
  /** `(modes, size)`. */
  readonly rotationTransposed: tf.Tensor2D;
}

/**
 * Several eigenbasis χ² of the same residuals that share their blocks and rotations and differ
 * only in their mode weights (a fit's training and validation χ²), in one pass: each block's
 * residuals rotated once, the squared modes weighted by every χ²'s weights at once and summed.
 * χ²[k, r] = Σ_m weights[k, r, m] · (Σ_i residuals[r, i] · rotation[i, m])², the same sums
 * in the same order as {@link eigenbasisChi2} of each weight set; its gradient is
 * Σ_k 2 dy[k, r] · weights[k, r, m] · modes[r, m] rotated back, block by block.
 *
 * @param residuals - `(replicas, data)`
 * @param weights - `(χ², replicas or 1, Σ modes)`, the blocks' weights side by side
 * @returns `(χ², replicas)`
 */
export function sharedRotationChi2s(
  residuals: tf.Tensor2D,
  blocks: readonly SharedRotationBlockTensors[],
  weights: tf.Tensor3D,
  ndata: number,
): tf.Tensor2D {
  const segments = dataSegments(blocks, ndata);
  const form = withCustomGrad(([input], save) => {
    const replicas = input.shape[0];
    const rotated = blockResiduals(input, segments, blocks).map((part, b) =>
      tf.matMul(part, blocks[b].rotation),
    );
    const modes = rotated.length === 1 ? rotated[0] : tf.concat(rotated, 1);
    // (modes · weights) · modes and, backward, (modes · weights) · 2 dy: the roundings of
    // eigenbasisChi2, so each χ² and its gradient come out as that form's, bit for bit
    const weighted = tf.mul(modes, weights);
    save([weighted]);
    return {
      value: stagedSum(tf.mul(weighted, modes)),
      gradFunc: (dy, saved) => {
        const [savedWeighted] = saved as [tf.Tensor3D];
        const twice = tf.reshape(tf.mul(dy, 2), [weights.shape[0], replicas, 1]);
        const scaled = tf.sum<tf.Tensor2D>(tf.mul(savedWeighted, twice), 0);
        const blockModes =
          blocks.length === 1
            ? [scaled]
            : tf.split(
                scaled,
                blocks.map((block) => block.modes),
                1,
              );
        return assemble(
          segments,
          blocks.map((block, b) => tf.matMul(blockModes[b], block.rotationTransposed)),
          replicas,
        );
      },
    };
  });
  return form(residuals) as tf.Tensor2D;
}
