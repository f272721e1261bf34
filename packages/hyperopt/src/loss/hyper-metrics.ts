import { cholesky, createMatrix, LinearAlgebraError } from '@partonfit/core';
import { chi2WithCholesky, type PointsCovariance } from './fold-covariance.js';

/**
 * The figures of merit of an ensemble of replicas on some data, as n3fit 4.1.5's
 * `compute_hyperopt_metrics` defines them, each per data point except `phi`.
 */
export interface HyperMetrics {
  /** χ²/n of the ensemble's central prediction with the experimental plus PDF covariance. */
  readonly chi2: number;
  /**
   * φ = √((⟨χ²[T_r]⟩ − χ²[⟨T⟩]) / n) with the experimental covariance: the replicas' spread in
   * units of the data's uncertainty (n3fit's `phi2`, which holds φ, not φ²).
   */
  readonly phi: number;
  /** −log p / n of the data under a Gaussian of the experimental plus PDF covariance. */
  readonly logp: number;
  /** χ²/n of the central prediction with the experimental covariance alone. */
  readonly chi2exp: number;
}

/** The covariance over replicas of predictions, `(points, points)`, with n − 1 (numpy's `cov`). */
function replicaCovariance(predictions: readonly Float64Array[], n: number): Float64Array {
  const replicas = predictions.length;
  const mean = new Float64Array(n);
  for (const row of predictions) for (let i = 0; i < n; i++) mean[i] += row[i] / replicas;
  const covariance = new Float64Array(n * n);
  for (const row of predictions) {
    for (let i = 0; i < n; i++) {
      const di = row[i] - mean[i];
      for (let j = 0; j < n; j++)
        covariance[i * n + j] += (di * (row[j] - mean[j])) / (replicas - 1);
    }
  }
  return covariance;
}

/**
 * The metrics of the replicas' predictions at the points of `data`.
 *
 * @param data - the points, their central values and experimental covariance
 * @param predictions - each replica's predictions at the points, `(replicas)` of `(points)`
 * @returns the metrics, each NaN when a prediction is not finite (a replica diverged)
 */
export function hyperMetrics(
  data: PointsCovariance,
  predictions: readonly Float64Array[],
): HyperMetrics {
  if (!predictions.every((row) => row.every(Number.isFinite))) {
    // a replica diverged: no covariance of the ensemble, no metric
    return { chi2: Number.NaN, phi: Number.NaN, logp: Number.NaN, chi2exp: Number.NaN };
  }
  const n = data.points.length;
  const replicas = predictions.length;
  const centralPrediction = new Float64Array(n);
  for (const row of predictions)
    for (let i = 0; i < n; i++) centralPrediction[i] += row[i] / replicas;
  const difference = centralPrediction.map((value, i) => value - data.central[i]);
  const chi2exp = chi2WithCholesky(data.cholesky, difference);
  const meanReplicaChi2 =
    predictions.reduce(
      (sum, row) =>
        sum +
        chi2WithCholesky(
          data.cholesky,
          row.map((value, i) => value - data.central[i]),
        ),
      0,
    ) / replicas;
  const { chi2, logp } = withReplicaSpread(data, predictions, difference);
  return {
    chi2: chi2 / n,
    phi: Math.sqrt(Math.max(meanReplicaChi2 - chi2exp, 0) / n),
    logp: -logp / n,
    chi2exp: chi2exp / n,
  };
}

/**
 * χ² of the central prediction and log p with the experimental plus PDF covariance. One replica
 * has no spread: the experimental factor serves. log det of the covariance normalised to the
 * central values is log det C − 2 Σ log |c_i|. NaN for both when the sum is not positive definite
 * (predictions far beyond the data's uncertainties).
 */
function withReplicaSpread(
  data: PointsCovariance,
  predictions: readonly Float64Array[],
  difference: Float64Array,
): { chi2: number; logp: number } {
  const n = data.points.length;
  let factor = data.cholesky;
  if (predictions.length > 1) {
    const total = Float64Array.from(data.covariance.data);
    const pdf = replicaCovariance(predictions, n);
    for (let i = 0; i < n * n; i++) total[i] += pdf[i];
    try {
      factor = cholesky(createMatrix(n, n, total));
    } catch (error) {
      if (!LinearAlgebraError.isInstance(error)) throw error;
      return { chi2: Number.NaN, logp: Number.NaN };
    }
  }
  let logDeterminant = 0;
  for (let i = 0; i < n; i++) {
    logDeterminant += 2 * (Math.log(factor.data[i * n + i]) - Math.log(Math.abs(data.central[i])));
  }
  const chi2 = chi2WithCholesky(factor, difference);
  return { chi2, logp: -0.5 * (n * Math.log(2 * Math.PI) + logDeterminant + chi2) };
}
