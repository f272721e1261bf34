import * as tf from '@tensorflow/tfjs-core';
import { RowFactor, type UpdateRule } from './update-rule.js';

/** Keras 3's defaults for the Adam family. */
const BETA_1 = 0.9;
const BETA_2 = 0.999;
const EPSILON = 1e-7;
/** Base of Keras 3's Nadam momentum schedule `u_t = β₁·(1 − ½·0.96^t)`. */
const NADAM_MOMENTUM_DECAY = 0.96;

/** The step's constant scalars, uploaded once per step rather than once per operation. */
function constants(): { oneMinusBeta1: tf.Scalar; oneMinusBeta2: tf.Scalar; epsilon: tf.Scalar } {
  return {
    oneMinusBeta1: tf.scalar(1 - BETA_1),
    oneMinusBeta2: tf.scalar(1 - BETA_2),
    epsilon: tf.scalar(EPSILON),
  };
}

/** `m ← m + (g − m)·(1 − β₁)`, Keras's first-moment update. */
function firstMoment(
  momentum: tf.Tensor,
  gradient: tf.Tensor,
  oneMinusBeta1: tf.Scalar,
): tf.Tensor {
  return tf.add(momentum, tf.mul(tf.sub(gradient, momentum), oneMinusBeta1));
}

/** `v ← v + (g² − v)·(1 − β₂)`, Keras's second-moment update. */
function secondMoment(
  velocity: tf.Tensor,
  gradient: tf.Tensor,
  oneMinusBeta2: tf.Scalar,
): tf.Tensor {
  return tf.add(velocity, tf.mul(tf.sub(tf.square(gradient), velocity), oneMinusBeta2));
}

/**
 * Keras 3's Adam with `amsgrad` (n3fit's "Amsgrad"; β₁ = 0.9, β₂ = 0.999, ε = 1e-7): `m` and `v`
 * as in {@link firstMoment} and {@link secondMoment}, `v̂ ← max(v̂, v)` and
 * `w ← w − m·α / (√v̂ + ε)` with `α = lr·√(1 − β₂^t) / (1 − β₁^t)`.
 */
export function amsgradRule(learningRates: readonly number[]): UpdateRule {
  return {
    slots: [
      { name: 'momentum', initialValue: 0 },
      { name: 'velocity', initialValue: 0 },
      { name: 'velocity_hat', initialValue: 0 },
    ],
    forStep: (step) => {
      const { oneMinusBeta1, oneMinusBeta2, epsilon } = constants();
      const alpha = new RowFactor(
        learningRates.map(
          (learningRate) => (learningRate * Math.sqrt(1 - BETA_2 ** step)) / (1 - BETA_1 ** step),
        ),
      );
      return (variable, gradient, [momentum, velocity, velocityHat], rows) => {
        const newMomentum = firstMoment(momentum, gradient, oneMinusBeta1);
        const newVelocity = secondMoment(velocity, gradient, oneMinusBeta2);
        const newVelocityHat = tf.maximum(velocityHat, newVelocity);
        const increment = tf.div(
          tf.mul(newMomentum, alpha.of(rows, variable.shape)),
          tf.add(tf.sqrt(newVelocityHat), epsilon),
        );
        return {
          variable: tf.sub(variable, increment),
          slots: [newMomentum, newVelocity, newVelocityHat],
        };
      };
    },
  };
}

/**
 * Keras 3's Adamax (β₁ = 0.9, β₂ = 0.999, ε = 1e-7): `m` as in {@link firstMoment},
 * `u ← max(β₂·u, |g|)`, `w ← w − lr·m / ((1 − β₁^t)·(u + ε))`.
 */
export function adamaxRule(learningRates: readonly number[]): UpdateRule {
  return {
    slots: [
      { name: 'momentum', initialValue: 0 },
      { name: 'norm', initialValue: 0 },
    ],
    forStep: (step) => {
      const { oneMinusBeta1, epsilon } = constants();
      const beta2 = tf.scalar(BETA_2);
      const stepSize = new RowFactor(
        learningRates.map((learningRate) => learningRate / (1 - BETA_1 ** step)),
      );
      return (variable, gradient, [momentum, norm], rows) => {
        const newMomentum = firstMoment(momentum, gradient, oneMinusBeta1);
        const newNorm = tf.maximum(tf.mul(norm, beta2), tf.abs(gradient));
        const increment = tf.div(
          tf.mul(newMomentum, stepSize.of(rows, variable.shape)),
          tf.add(newNorm, epsilon),
        );
        return { variable: tf.sub(variable, increment), slots: [newMomentum, newNorm] };
      };
    },
  };
}

/**
 * Keras 3's Nadam momentum schedule `u_t = β₁·(1 − ½·0.96^t)` and its running product
 * `Π_t = u_1·…·u_t`, kept on the host and multiplied up step by step. (Keras 2's legacy Nadam used
 * `0.96^(0.004·t)` instead.)
 */
class NadamSchedule {
  private productStep = 0;
  private product = 1;

  factor(step: number): number {
    return BETA_1 * (1 - 0.5 * NADAM_MOMENTUM_DECAY ** step);
  }

  productUpTo(step: number): number {
    if (step < this.productStep) {
      this.productStep = 0;
      this.product = 1;
    }
    while (this.productStep < step) {
      this.productStep += 1;
      this.product *= this.factor(this.productStep);
    }
    return this.product;
  }
}

/** One row's factors of {@link adamFamilyRule}'s step. */
interface AdamFamilyFactors {
  readonly momentum: number;
  readonly gradient: number;
  readonly rate: number;
  readonly velocity: number;
}

/**
 * Keras 3's Adam and Nadam (β₁ = 0.9, β₂ = 0.999, ε = 1e-7) in one update, each row by its own
 * formula: `m` and `v` as in {@link firstMoment} and {@link secondMoment}, then
 * `w ← w − (m·P + g·Q)·R / (√(v·C) + ε)` with per-row factors
 * - Adam: `P = lr·√(1 − β₂^t) / (1 − β₁^t)`, `Q = 0`, `R = 1`, `C = 1`;
 * - Nadam, with its momentum schedule `u_t = β₁·(1 − ½·0.96^t)` and `Π_t = u_1·…·u_t`:
 *   `P = u_{t+1} / (1 − Π_{t+1})`, `Q = (1 − u_t) / (1 − Π_t)`, `R = lr`, `C = 1 / (1 − β₂^t)`,
 *   that is `m̂ = u_{t+1}·m / (1 − Π_{t+1}) + (1 − u_t)·g / (1 − Π_t)`, `v̂ = v / (1 − β₂^t)`,
 *   `w ← w − lr·m̂ / (√v̂ + ε)`.
 *
 * A term whose factor is 0 (Q) or 1 (R, C) on every row of a variable is left out, so a variable
 * of Adam rows only runs exactly Adam's operations and one of Nadam rows only Nadam's; in a
 * variable of both, an Adam row's `g·0` and `·1` change nothing, bit for bit. Adam and Nadam
 * replicas therefore share one network and one update and still each get its own optimiser's
 * numbers.
 *
 * @param nesterov - `(replicas)`: true for a Nadam row, false for an Adam row
 * @param learningRates - `(replicas)`
 */
export function adamFamilyRule(
  nesterov: readonly boolean[],
  learningRates: readonly number[],
): UpdateRule {
  const schedule = new NadamSchedule();
  const rowFactors = (step: number): AdamFamilyFactors[] => {
    const adamRate = (learningRate: number) =>
      (learningRate * Math.sqrt(1 - BETA_2 ** step)) / (1 - BETA_1 ** step);
    const factor = schedule.factor(step);
    const nextFactor = schedule.factor(step + 1);
    const productNow = nesterov.some(Boolean) ? schedule.productUpTo(step) : 1;
    const nadam = {
      momentum: nextFactor / (1 - productNow * nextFactor),
      gradient: (1 - factor) / (1 - productNow),
      velocity: 1 / (1 - BETA_2 ** step),
    };
    return nesterov.map((isNadam, row): AdamFamilyFactors =>
      isNadam
        ? { ...nadam, rate: learningRates[row] }
        : { momentum: adamRate(learningRates[row]), gradient: 0, rate: 1, velocity: 1 },
    );
  };
  return {
    slots: [
      { name: 'momentum', initialValue: 0 },
      { name: 'velocity', initialValue: 0 },
    ],
    fused: {
      constants: { oneMinusBeta1: 1 - BETA_1, oneMinusBeta2: 1 - BETA_2, epsilon: EPSILON },
      rowFactors,
    },
    forStep: (step) => {
      const { oneMinusBeta1, oneMinusBeta2, epsilon } = constants();
      const rows = rowFactors(step);
      const momentumWeight = new RowFactor(rows.map((row) => row.momentum));
      const gradientWeight = new RowFactor(rows.map((row) => row.gradient));
      const rate = new RowFactor(rows.map((row) => row.rate));
      const velocityWeight = new RowFactor(rows.map((row) => row.velocity));
      return (variable, gradient, [momentum, velocity], range) => {
        const { shape } = variable;
        const newMomentum = firstMoment(momentum, gradient, oneMinusBeta1);
        const newVelocity = secondMoment(velocity, gradient, oneMinusBeta2);
        const weightedMomentum = tf.mul(newMomentum, momentumWeight.of(range, shape));
        const momentumHat = gradientWeight.isEverywhere(range, 0)
          ? weightedMomentum
          : tf.add(weightedMomentum, tf.mul(gradient, gradientWeight.of(range, shape)));
        const velocityHat = velocityWeight.isEverywhere(range, 1)
          ? newVelocity
          : tf.mul(newVelocity, velocityWeight.of(range, shape));
        const step = rate.isEverywhere(range, 1)
          ? momentumHat
          : tf.mul(momentumHat, rate.of(range, shape));
        const increment = tf.div(step, tf.add(tf.sqrt(velocityHat), epsilon));
        return { variable: tf.sub(variable, increment), slots: [newMomentum, newVelocity] };
      };
    },
  };
}
