import * as tf from '@tensorflow/tfjs-core';
import { RowFactor, type UpdateRule } from './update-rule.js';

/** Keras 3's defaults for the RMSprop family. */
const RMSPROP_RHO = 0.9;
const ADADELTA_RHO = 0.95;
const ADAGRAD_INITIAL_ACCUMULATOR = 0.1;
const EPSILON = 1e-7;

/**
 * Keras 3's RMSprop (ρ = 0.9, ε = 1e-7): `v ← ρ·v + (1−ρ)·g²`; the increment is
 * `lr·g / √(v + ε)`, or with `centered` `lr·g / √(v − a² + ε)` where `a ← ρ·a + (1−ρ)·g`;
 * `w ← w − increment`, or with momentum μ > 0 `p ← μ·p + increment` and `w ← w − p`.
 */
export function rmspropRule(
  learningRates: readonly number[],
  momentum: number,
  centered: boolean,
): UpdateRule {
  const slots = [
    { name: 'velocity', initialValue: 0 },
    ...(momentum > 0 ? [{ name: 'momentum', initialValue: 0 }] : []),
    ...(centered ? [{ name: 'average_gradient', initialValue: 0 }] : []),
  ];
  const momentumSlot = slots.findIndex((slot) => slot.name === 'momentum');
  const averageSlot = slots.findIndex((slot) => slot.name === 'average_gradient');
  return {
    slots,
    forStep: () => {
      const rho = tf.scalar(RMSPROP_RHO);
      const oneMinusRho = tf.scalar(1 - RMSPROP_RHO);
      const epsilon = tf.scalar(EPSILON);
      const lr = new RowFactor(learningRates);
      const mu = tf.scalar(momentum);
      return (variable, gradient, previous, rows) => {
        const next = [...previous];
        const velocity = tf.add(tf.mul(previous[0], rho), tf.mul(tf.square(gradient), oneMinusRho));
        next[0] = velocity;
        let denominator = tf.add(velocity, epsilon);
        if (averageSlot >= 0) {
          const averageGradient = tf.add(
            tf.mul(previous[averageSlot], rho),
            tf.mul(gradient, oneMinusRho),
          );
          next[averageSlot] = averageGradient;
          denominator = tf.add(tf.sub(velocity, tf.square(averageGradient)), epsilon);
        }
        let increment = tf.div(tf.mul(gradient, lr.of(rows, variable.shape)), tf.sqrt(denominator));
        if (momentumSlot >= 0) {
          increment = tf.add(tf.mul(previous[momentumSlot], mu), increment);
          next[momentumSlot] = increment;
        }
        return { variable: tf.sub(variable, increment), slots: next };
      };
    },
  };
}

/**
 * Keras 3's Adagrad (initial accumulator 0.1, ε = 1e-7): `a ← a + g²`,
 * `w ← w − lr·g / √(a + ε)`.
 */
export function adagradRule(learningRates: readonly number[]): UpdateRule {
  return {
    slots: [{ name: 'accumulator', initialValue: ADAGRAD_INITIAL_ACCUMULATOR }],
    forStep: () => {
      const lr = new RowFactor(learningRates);
      const epsilon = tf.scalar(EPSILON);
      return (variable, gradient, [accumulator], rows) => {
        const newAccumulator = tf.add(accumulator, tf.square(gradient));
        const increment = tf.div(
          tf.mul(gradient, lr.of(rows, variable.shape)),
          tf.sqrt(tf.add(newAccumulator, epsilon)),
        );
        return { variable: tf.sub(variable, increment), slots: [newAccumulator] };
      };
    },
  };
}

/**
 * Keras 3's Adadelta (ρ = 0.95, ε = 1e-7): `G ← ρ·G + (1−ρ)·g²`,
 * `Δ = −√(D + ε)·g / √(G + ε)`, `D ← ρ·D + (1−ρ)·Δ²`, `w ← w + lr·Δ`.
 */
export function adadeltaRule(learningRates: readonly number[]): UpdateRule {
  return {
    slots: [
      { name: 'accumulated_grad', initialValue: 0 },
      { name: 'accumulated_delta_var', initialValue: 0 },
    ],
    forStep: () => {
      const rho = tf.scalar(ADADELTA_RHO);
      const oneMinusRho = tf.scalar(1 - ADADELTA_RHO);
      const epsilon = tf.scalar(EPSILON);
      const lr = new RowFactor(learningRates);
      return (variable, gradient, [gradientSquares, deltaSquares], rows) => {
        const newGradientSquares = tf.add(
          tf.mul(gradientSquares, rho),
          tf.mul(tf.square(gradient), oneMinusRho),
        );
        const delta = tf.neg(
          tf.div(
            tf.mul(tf.sqrt(tf.add(deltaSquares, epsilon)), gradient),
            tf.sqrt(tf.add(newGradientSquares, epsilon)),
          ),
        );
        const newDeltaSquares = tf.add(
          tf.mul(deltaSquares, rho),
          tf.mul(tf.square(delta), oneMinusRho),
        );
        return {
          variable: tf.add(variable, tf.mul(delta, lr.of(rows, variable.shape))),
          slots: [newGradientSquares, newDeltaSquares],
        };
      };
    },
  };
}
