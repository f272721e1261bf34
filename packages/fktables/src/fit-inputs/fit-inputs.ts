import type { Chi2Structure, CovarianceChi2, ObservableTensors } from '@partonfit/core';
import type { FitTheoryCovariance } from './fit-theory-covariance.js';

/** A dataset as the training step sees it. */
export interface FitDataset {
  /** The name the runcard gives. */
  readonly name: string;
  /** First data point of the dataset on the fit's data axis. */
  readonly offset: number;
  /** Number of data points (after cuts). */
  readonly ndata: number;
  /** The observable's FK tensors. */
  readonly observable: ObservableTensors;
}

/** A positivity or integrability set: its predictions are penalised, with a multiplier. */
export interface LagrangeDataset {
  /** The name the runcard gives. */
  readonly name: string;
  /** Number of points. */
  readonly ndata: number;
  /** The runcard's `maxlambda`: the multiplier's final value. */
  readonly maxLambda: number;
  /** The observable's FK tensors. */
  readonly observable: ObservableTensors;
}

/** One block of a covariance matrix, float64 `(size, size)` row-major. */
export interface CovarianceBlockValues {
  readonly offset: number;
  readonly size: number;
  readonly covariance: Float64Array;
}

/**
 * The k-fold cross-validation of a hyperparameter scan's inputs: which points each row leaves
 * out, and the covariance its held-out points' χ² is measured with.
 */
export interface FitFolds {
  /** The fold of each row, `(rows)`. */
  readonly rowFold: Int32Array;
  /** Each fold's held-out points, `(folds, data)`, 1 = held out. */
  readonly heldOut: Uint8Array;
  /**
   * The experimental covariance without t0 and without dataset weights, by independent block,
   * with which a scan measures the folds (validphys's covariance from systematics, as n3fit's
   * hyperopt metrics).
   */
  readonly covariance: readonly CovarianceBlockValues[];
}

/**
 * Every array the training step multiplies, for one runcard and one set of replicas, prepared
 * once (and cached in HDF5 by {@link prepareFitInputs}).
 *
 * Memory, with R replicas, N data points in blocks of sizes n_b and M eigenmodes (float32):
 * pseudodata 4·R·N bytes; a data-point split 8·R·Σ_b n_b² (training and validation
 * inverses); a diagonal-basis split 4·Σ_b n_b·m_b + 8·R·M; the experimental structure
 * 4·Σ_b n_b², and its per-dataset one 4·Σ_d n_d² more over the datasets that share a block. For
 * R = 100 and N = 4,600 in blocks of at most ~1,200 points (Σ_b n_b² ≲ 4·10⁶) a data-point
 * split needs ≲ 3.2 GB, a diagonal-basis split ≲ 20 MB.
 */
export interface FitInputs {
  /** Hash of everything the inputs were built from (the cache key). */
  readonly key: string;
  /** The replicas, 1-based, in the order of every replica axis below. */
  readonly replicas: readonly number[];
  /** The scale Q0 (GeV) of the FK tables, where the PDF is parametrised. */
  readonly q0: number;
  /** The x points where the PDF is evaluated each step, (x); tables read contiguous slices. */
  readonly xGrid: Float64Array;
  /** The datasets in data-axis order. */
  readonly datasets: readonly FitDataset[];
  /** Total number of data points N. */
  readonly ndata: number;
  /** The central experimental values, (data). */
  readonly centralData: Float64Array;
  /** Each replica's pseudodata D_r, float32 (replicas, data). */
  readonly pseudodata: Float32Array;
  /** χ² structure of each replica's training points or eigenmodes. */
  readonly training: Chi2Structure;
  /** χ² structure of each replica's validation points or eigenmodes. */
  readonly validation: Chi2Structure;
  /**
   * χ² against the central data with the fit's whole covariance, shared by all replicas (n3fit's
   * experimental χ²): the t0 covariance when the runcard names a `t0pdfset` (the experimental
   * one otherwise), divided by the dataset weights, plus S with `use_thcovmat_in_fitting`.
   */
  readonly experimental: Chi2Structure;
  /**
   * Each dataset's χ² against its central data with its own block of the covariance of
   * `experimental`, one block per dataset with points, in data order: res_d · (C_dd + S_dd)⁻¹ ·
   * res_d (without S_dd when S is not in the fit's χ²), validphys's χ² of a dataset times the
   * dataset's `weight` (the fit's covariance is divided by it). Blocks of
   * datasets that are a covariance block of their own are `experimental`'s (the same arrays).
   */
  readonly experimentalByDataset: CovarianceChi2;
  /**
   * With a theory covariance in the fit's χ² (`use_thcovmat_in_fitting`): the χ² of
   * `experimental` without S — the t0 covariance (or the experimental one without a
   * `t0pdfset`) with the dataset weights — to report both.
   */
  readonly experimentalWithoutTheory?: Chi2Structure | undefined;
  /** Number of training points (or eigenmodes) per replica, (replicas). */
  readonly trainingCounts: Int32Array;
  /** Number of validation points (or eigenmodes) per replica, (replicas). */
  readonly validationCounts: Int32Array;
  /** Positivity sets. */
  readonly positivity: readonly LagrangeDataset[];
  /** Integrability sets. */
  readonly integrability: readonly LagrangeDataset[];
  /** The t0 PDF set used for the covariance, if any. */
  readonly t0PdfSet: string | undefined;
  /**
   * With k-fold cross-validation (a scan's `kfold`): the folds; `training`, `validation` and
   * their counts already leave each row's held-out points out.
   */
  readonly folds?: FitFolds | undefined;
  /**
   * With `theorycovmatconfig`: the theory covariance S and where it enters (the χ² structures
   * and pseudodata above already hold C + S where it does).
   */
  readonly theoryCovariance?: FitTheoryCovariance | undefined;
  /** The files the inputs were read from (a cached copy is stale when one of them changes). */
  readonly sources: readonly string[];
}
