/**
 * The density estimators of hyperopt's TPE (`hyperopt/tpe.py`, 0.2.x): the adaptive Parzen
 * estimator of a numeric label (a Gaussian mixture truncated to the label's range) and the
 * categorical posterior of a choice, both with hyperopt's linear forgetting of old trials.
 */
import type { SeededRandom } from '@partonfit/core';
import { normalLogDensity, normalMass } from './normal.js';

/** A one-dimensional Gaussian mixture: normalised weights, centres and widths. */
export interface GaussianMixture {
  readonly weights: Float64Array;
  readonly mus: Float64Array;
  readonly sigmas: Float64Array;
}

/**
 * hyperopt's `linear_forgetting_weights(n, LF)`: the weights of `n` observations, oldest first.
 * All 1 while n ≤ LF; beyond, the n − LF oldest ramp linearly from 1/n up to 1 and the LF newest
 * keep weight 1.
 */
export function linearForgettingWeights(count: number, linearForgetting: number): Float64Array {
  const weights = new Float64Array(count).fill(1);
  const ramp = count - linearForgetting;
  if (ramp <= 0) return weights;
  // numpy.linspace(1/n, 1, num=ramp): one point is the start alone.
  const step = ramp === 1 ? 0 : (1 - 1 / count) / (ramp - 1);
  for (let i = 0; i < ramp; i++) weights[i] = 1 / count + i * step;
  return weights;
}

/**
 * hyperopt's `adaptive_parzen_normal`: a Gaussian mixture with one component per observation and
 * one for the prior.
 *
 * The prior component sits at `priorMu` with width `priorSigma` and weight `priorWeight`. The
 * components are sorted by centre with the prior inserted among them (before observations equal
 * to it); each observation's width is the larger distance to its sorted neighbours (the prior
 * counting as a neighbour; one distance at the ends), clipped to
 * [priorSigma / min(100, 1 + components), priorSigma]. A single observation has width
 * priorSigma / 2. The observations' weights are {@link linearForgettingWeights} in their given
 * (oldest-first) order; the weights are normalised.
 *
 * @param observations - the label's observed values, oldest first (log values for loguniform)
 */
export function adaptiveParzenNormal(
  observations: readonly number[],
  priorWeight: number,
  priorMu: number,
  priorSigma: number,
  linearForgetting: number,
): GaussianMixture {
  const count = observations.length;
  const order = observations
    .map((_, index) => index)
    .sort((a, b) => {
      const difference = observations[a] - observations[b];
      return difference === 0 ? a - b : difference;
    });
  // Where the prior goes among the sorted observations: numpy.searchsorted (left), except that
  // hyperopt puts it after a single observation equal to it.
  let priorPosition = order.findIndex((index) => observations[index] >= priorMu);
  if (priorPosition === -1 || (count === 1 && observations[0] === priorMu)) priorPosition = count;
  const components = count + 1;
  const mus = new Float64Array(components);
  const observationIndex = new Int32Array(components).fill(-1);
  for (let k = 0, j = 0; k < components; k++) {
    if (k === priorPosition) {
      mus[k] = priorMu;
    } else {
      observationIndex[k] = order[j];
      mus[k] = observations[order[j]];
      j++;
    }
  }

  const sigmas = new Float64Array(components);
  if (count === 1) {
    sigmas.fill(0.5 * priorSigma);
  } else if (count >= 2) {
    for (let k = 1; k < components - 1; k++) {
      sigmas[k] = Math.max(mus[k] - mus[k - 1], mus[k + 1] - mus[k]);
    }
    sigmas[0] = mus[1] - mus[0];
    sigmas[components - 1] = mus[components - 1] - mus[components - 2];
  }
  const maxSigma = priorSigma;
  const minSigma = priorSigma / Math.min(100, 1 + components);
  for (let k = 0; k < components; k++) {
    sigmas[k] = Math.min(maxSigma, Math.max(minSigma, sigmas[k]));
  }
  sigmas[priorPosition] = priorSigma;

  const forgetting = linearForgettingWeights(count, linearForgetting);
  const weights = new Float64Array(components);
  let total = 0;
  for (let k = 0; k < components; k++) {
    const index = observationIndex[k];
    weights[k] = index === -1 ? priorWeight : forgetting[index];
    total += weights[k];
  }
  for (let k = 0; k < components; k++) weights[k] /= total;
  return { weights, mus, sigmas };
}

/** An index drawn with probabilities `weights` (which sum to 1): one uniform draw. */
export function sampleIndex(weights: Float64Array, random: SeededRandom): number {
  const u = random.uniform();
  let cumulative = 0;
  for (let k = 0; k < weights.length; k++) {
    cumulative += weights[k];
    if (u < cumulative) return k;
  }
  // Rounding left the cumulative sum just below u: the last component with weight.
  for (let k = weights.length - 1; k > 0; k--) if (weights[k] > 0) return k;
  return 0;
}

/** A Gaussian mixture truncated to [low, high), with the log of its mass inside the range. */
export interface TruncatedMixture extends GaussianMixture {
  readonly low: number;
  readonly high: number;
  /** log(mass of the untruncated mixture in [low, high]), hyperopt's `log(p_accept)`. */
  readonly logAccept: number;
}

/** The mixture truncated to [low, high). */
export function truncateMixture(
  mixture: GaussianMixture,
  low: number,
  high: number,
): TruncatedMixture {
  return { ...mixture, low, high, logAccept: Math.log(mixtureMass(mixture, low, high)) };
}

/**
 * A draw from the truncated mixture as hyperopt's `GMM1` draws it: pick a component by weight,
 * draw from it, and start again (component included) until the draw lies in [low, high).
 *
 * This ends quickly: the prior component (centred in the range, σ = its width) lands inside with
 * probability 0.38, so the expected number of attempts is at most 2.6 / (prior's weight).
 */
export function sampleTruncatedMixture(mixture: TruncatedMixture, random: SeededRandom): number {
  for (;;) {
    const k = sampleIndex(mixture.weights, random);
    const draw = mixture.mus[k] + mixture.sigmas[k] * random.normal();
    if (mixture.low <= draw && draw < mixture.high) return draw;
  }
}

/** The probability that a draw from the (untruncated) mixture lies in [from, to]. */
export function mixtureMass(mixture: GaussianMixture, from: number, to: number): number {
  let mass = 0;
  for (let k = 0; k < mixture.weights.length; k++) {
    const mu = mixture.mus[k];
    const sigma = mixture.sigmas[k];
    mass += mixture.weights[k] * normalMass((from - mu) / sigma, (to - mu) / sigma);
  }
  return mass;
}

/**
 * The log density at x ∈ [low, high] of the truncated mixture (hyperopt's `GMM1_lpdf` with
 * q = None): log Σₖ wₖ N(x; μₖ, σₖ) − log p_accept.
 */
export function truncatedMixtureLogDensity(mixture: TruncatedMixture, x: number): number {
  const count = mixture.weights.length;
  const terms = new Float64Array(count);
  let largest = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < count; k++) {
    terms[k] =
      Math.log(mixture.weights[k]) + normalLogDensity(x, mixture.mus[k], mixture.sigmas[k]);
    largest = Math.max(largest, terms[k]);
  }
  if (largest === Number.NEGATIVE_INFINITY) return largest;
  let sum = 0;
  for (const term of terms) sum += Math.exp(term - largest);
  return largest + Math.log(sum) - mixture.logAccept;
}

/**
 * The log probability that a draw from the truncated mixture lies in [from, to] ⊂ [low, high]
 * (hyperopt's `GMM1_lpdf` with q: the quantisation bin's mass).
 */
export function truncatedMixtureLogMass(
  mixture: TruncatedMixture,
  from: number,
  to: number,
): number {
  return Math.log(mixtureMass(mixture, from, to)) - mixture.logAccept;
}

/**
 * hyperopt's posterior of a choice (`ap_randint_sampler`, as `hp.choice` is a `randint`):
 * probabilities ∝ the observations' {@link linearForgettingWeights} counted per option plus
 * `priorWeight` for every option. (`ap_categorical_sampler` adds `options · priorWeight · pᵢ`,
 * the same for the uniform pᵢ = 1/options of a choice.)
 *
 * @param observations - the chosen indices, oldest first
 */
export function categoricalPosterior(
  observations: readonly number[],
  options: number,
  priorWeight: number,
  linearForgetting: number,
): Float64Array {
  const forgetting = linearForgettingWeights(observations.length, linearForgetting);
  const counts = new Float64Array(options).fill(priorWeight);
  observations.forEach((index, i) => {
    counts[index] += forgetting[i];
  });
  const total = counts.reduce((sum, count) => sum + count, 0);
  return counts.map((count) => count / total);
}
