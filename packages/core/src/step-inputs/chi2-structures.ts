/**
 * The precomputed structures a training step uses to turn residuals into per-replica χ².
 * `@partonfit/fktables` builds them once at set-up (from covariances, training/validation
 * splits and eigensystems); `@partonfit/layers` multiplies them. No boolean mask or gather is
 * applied per step: a point or eigenmode that a replica does not use has a zero weight.
 *
 * The data axis of every structure is the concatenation of the group's datasets; blocks are
 * contiguous, independent stretches of it (datasets or experiments that share no correlated
 * uncertainty), so memory grows with Σ_b size_b² rather than with the square of all points.
 *
 * @packageDocumentation
 */

/**
 * One block of a {@link CovarianceChi2}: χ²_{r,b} = res_{r,b} · W_{r,b} · res_{r,b} over the
 * block's points.
 */
export interface CovarianceChi2Block {
  /** First data point of the block in the group's data axis. */
  readonly offset: number;
  /** Number of data points in the block. */
  readonly size: number;
  /**
   * The weight matrices, float32 row-major with shape `(replicas, size, size)`, or
   * `(1, size, size)` when one matrix serves every replica. For a training or validation
   * split, replica r's matrix is the inverse of the covariance restricted to its points,
   * embedded with zero rows and columns at the points it does not use.
   */
  readonly weights: Float32Array;
}

/** χ²_r = Σ_b res_{r,b} · W_{r,b} · res_{r,b}, with res_r = D_r − T_r. */
export interface CovarianceChi2 {
  /** Discriminant. */
  readonly kind: 'covariance';
  /** Number of data points of the group (length of the residual's data axis). */
  readonly ndata: number;
  /** Number of replicas the weights hold: the run's replica count, or 1 for a shared matrix. */
  readonly replicas: number;
  /** The independent blocks, in data order, together covering the points that count. */
  readonly blocks: readonly CovarianceChi2Block[];
}

/**
 * One block of an {@link EigenbasisChi2}: ε_{r,b} = res_{r,b} · rotation_b, then
 * χ²_{r,b} = Σ_k weights_b[r, k] · ε_{r,b,k}².
 */
export interface EigenbasisChi2Block {
  /** First data point of the block in the group's data axis. */
  readonly offset: number;
  /** Number of data points in the block. */
  readonly size: number;
  /** Number of eigenmodes kept in the block. */
  readonly modes: number;
  /** Rotation to the eigenbasis, float32 `(size, modes)`: column k is V_kᵀ S⁻¹ (see n3fit). */
  readonly rotation: Float32Array;
  /**
   * Per-replica mode weights, float32 `(replicas, modes)` (or `(1, modes)` when shared): 1/λ_k
   * for the modes this structure counts for replica r, 0 for the others.
   */
  readonly weights: Float32Array;
}

/** χ² in the diagonal (eigen)basis of the correlation matrix, NNPDF4.1's default. */
export interface EigenbasisChi2 {
  /** Discriminant. */
  readonly kind: 'eigenbasis';
  /** Number of data points of the group (length of the residual's data axis). */
  readonly ndata: number;
  /** Number of replicas the weights hold: the run's replica count, or 1 when shared. */
  readonly replicas: number;
  /** The independent blocks, in data order. */
  readonly blocks: readonly EigenbasisChi2Block[];
}

/** Either χ² structure. */
export type Chi2Structure = CovarianceChi2 | EigenbasisChi2;
