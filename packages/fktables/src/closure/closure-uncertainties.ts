import {
  cholesky,
  createMatrix,
  InvalidArgumentError,
  SeededRandom,
  type Matrix,
} from '@partonfit/core';

/**
 * The uncertainties of a closure dataset and its level-1 fluctuation.
 *
 * @packageDocumentation
 */

/**
 * The uncertainty model of one closure dataset: an uncorrelated uncertainty, a fraction of a
 * reference value S_n (the observable itself unless the toy PDF predicts 0 or changes sign
 * there), and a normalisation uncertainty, a fraction of the observable T_n.
 */
export interface ClosureUncertainty {
  /** Uncorrelated relative uncertainty: σ_n = uncorrelated · |S_n|. Must be positive. */
  readonly uncorrelated: number;
  /**
   * Normalisation uncertainty, fully correlated across the dataset: a common relative shift
   * normalisation · T_n of every point. Zero or positive.
   */
  readonly normalisation: number;
}

/**
 * The covariance C_ij = δ_ij (u · S_i)² + ν² · T_i · T_j of a dataset with uncorrelated
 * uncertainty u (a fraction of the reference values S) and normalisation uncertainty ν (a
 * fraction of the observable's values T). Exactly symmetric, and positive definite when u > 0
 * and no S_i is 0.
 *
 * @param values - T, shape `(data)`
 * @param reference - S, shape `(data)`
 * @returns C, `(data, data)`
 * @throws InvalidArgumentError - for u ≤ 0, ν < 0, an S_i that is 0 or not finite, a T_i that
 *   is not finite, or lengths that differ
 */
export function closureCovariance(
  values: Float64Array,
  reference: Float64Array,
  uncertainty: ClosureUncertainty,
): Matrix {
  const { uncorrelated, normalisation } = uncertainty;
  if (!(uncorrelated > 0 && normalisation >= 0)) {
    throw new InvalidArgumentError({
      argument: 'uncertainty',
      problem: `expected uncorrelated > 0 and normalisation ≥ 0, got ${uncorrelated}, ${normalisation}`,
    });
  }
  const n = values.length;
  if (reference.length !== n) {
    throw new InvalidArgumentError({
      argument: 'reference',
      problem: `has ${reference.length} points, the values have ${n}`,
    });
  }
  const bad = reference.findIndex((value) => value === 0 || !Number.isFinite(value));
  if (bad !== -1) {
    throw new InvalidArgumentError({
      argument: 'reference',
      problem: `point ${bad} is ${reference[bad]}: relative uncertainties need a finite, non-zero reference`,
    });
  }
  const badValue = values.findIndex((value) => !Number.isFinite(value));
  if (badValue !== -1) {
    throw new InvalidArgumentError({
      argument: 'values',
      problem: `point ${badValue} is ${values[badValue]}`,
    });
  }
  const covariance = createMatrix(n, n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const correlated = normalisation ** 2 * values[i] * values[j];
      covariance.data[i * n + j] = correlated;
      covariance.data[j * n + i] = correlated;
    }
    covariance.data[i * n + i] =
      (normalisation * values[i]) ** 2 + (uncorrelated * reference[i]) ** 2;
  }
  return covariance;
}

/**
 * Level-1 closure data: the level-0 data (the known PDF's predictions) plus one fluctuation
 * drawn from the covariance, D = T + L·z with L·Lᵀ = C and z ~ N(0, 1) from
 * `new SeededRandom(seed)`.
 *
 * @param predictions - T, shape `(data)`
 * @param covariance - C, `(data, data)`, symmetric positive definite
 * @param seed - an unsigned 32-bit integer
 * @returns D, shape `(data)`
 */
export function fluctuateData(
  predictions: Float64Array,
  covariance: Matrix,
  seed: number,
): Float64Array {
  const n = predictions.length;
  const factor = cholesky(covariance).data;
  const draws = new SeededRandom(seed).normals(n);
  return Float64Array.from(predictions, (value, i) => {
    let shift = 0;
    for (let k = 0; k <= i; k++) shift += factor[i * n + k] * draws[k];
    return value + shift;
  });
}
