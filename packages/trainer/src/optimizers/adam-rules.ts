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
 * Keras 3's Adam (β₁ = 0.9, β₂ = 0.999, ε = 1e-7): `m` and `v` as in {@link firstMoment} and
 * {@link secondMoment}, `w ← w − m·α / (√v + ε)` with `α = lr·√(1 − β₂^t) / (1 − β₁^t)`. With
 * `amsgrad` (n3fit's "Amsgrad"), `v̂ ← max(v̂, v)` replaces `v` in the step.
 */
export function adamRule(learningRates: readonly number[], amsgrad: boolean): UpdateRule {
  return {
    slots: [
      { name: 'momentum', initialValue: 0 },
      { name: 'velocity', initialValue: 0 },
      ...(amsgrad ? [{ name: 'velocity_hat', initialValue: 0 }] : []),
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
        const slots = [newMomentum, newVelocity];
        let denominatorVelocity = newVelocity;
        if (amsgrad) {
          denominatorVelocity = tf.maximum(velocityHat, newVelocity);
          slots.push(denominatorVelocity);
        }
        const increment = tf.div(
          tf.mul(newMomentum, alpha.of(rows, variable.shape)),
          tf.add(tf.sqrt(denominatorVelocity), epsilon),
        );
        return { variable: tf.sub(variable, increment), slots };
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
 * Keras 3's Nadam (β₁ = 0.9, β₂ = 0.999, ε = 1e-7) with its momentum schedule
 * `u_t = β₁·(1 − ½·0.96^t)` and `Π_t = u_1·…·u_t`: `m`, `v` as in Adam, then
 * `m̂ = u_{t+1}·m / (1 − Π_{t+1}) + (1 − u_t)·g / (1 − Π_t)`, `v̂ = v / (1 − β₂^t)` and
 * `w ← w − lr·m̂ / (√v̂ + ε)`. (Keras 2's legacy Nadam used `0.96^(0.004·t)` instead.)
 *
 * `Π_t` is kept on the host, multiplied up step by step.
 */
export function nadamRule(learningRates: readonly number[]): UpdateRule {
  const momentumFactor = (step: number): number =>
    BETA_1 * (1 - 0.5 * NADAM_MOMENTUM_DECAY ** step);
  let productStep = 0;
  let product = 1;
  const productUpTo = (step: number): number => {
    if (step < productStep) {
      productStep = 0;
      product = 1;
    }
    while (productStep < step) {
      productStep += 1;
      product *= momentumFactor(productStep);
    }
    return product;
  };
  return {
    slots: [
      { name: 'momentum', initialValue: 0 },
      { name: 'velocity', initialValue: 0 },
    ],
    forStep: (step) => {
      const factor = momentumFactor(step);
      const nextFactor = momentumFactor(step + 1);
      const productNow = productUpTo(step);
      const { oneMinusBeta1, oneMinusBeta2, epsilon } = constants();
      const momentumWeight = tf.scalar(nextFactor / (1 - productNow * nextFactor));
      const gradientWeight = tf.scalar((1 - factor) / (1 - productNow));
      const velocityWeight = tf.scalar(1 / (1 - BETA_2 ** step));
      const lr = new RowFactor(learningRates);
      return (variable, gradient, [momentum, velocity], rows) => {
        const newMomentum = firstMoment(momentum, gradient, oneMinusBeta1);
        const newVelocity = secondMoment(velocity, gradient, oneMinusBeta2);
        const momentumHat = tf.add(
          tf.mul(newMomentum, momentumWeight),
          tf.mul(gradient, gradientWeight),
        );
        const velocityHat = tf.mul(newVelocity, velocityWeight);
        const increment = tf.div(
          tf.mul(momentumHat, lr.of(rows, variable.shape)),
          tf.add(tf.sqrt(velocityHat), epsilon),
        );
        return { variable: tf.sub(variable, increment), slots: [newMomentum, newVelocity] };
      };
    },
  };
}
