import * as tf from '@tensorflow/tfjs-core';
import { RowFactor, type UpdateRule } from './update-rule.js';

/**
 * Keras 3's SGD: `w ← w − lr·g`; with momentum μ > 0, `m ← μ·m − lr·g` and `w ← w + m`, or with
 * Nesterov `w ← w + μ·m − lr·g`.
 */
export function sgdRule(
  learningRates: readonly number[],
  momentum: number,
  nesterov: boolean,
): UpdateRule {
  if (momentum === 0) {
    return {
      slots: [],
      forStep: () => {
        const lr = new RowFactor(learningRates);
        return (variable, gradient, _slots, rows) => ({
          variable: tf.sub(variable, tf.mul(gradient, lr.of(rows, variable.shape))),
          slots: [],
        });
      },
    };
  }
  return {
    slots: [{ name: 'momentum', initialValue: 0 }],
    forStep: () => {
      const lr = new RowFactor(learningRates);
      const mu = tf.scalar(momentum);
      return (variable, gradient, [velocity], rows) => {
        const step = tf.mul(gradient, lr.of(rows, variable.shape));
        const newVelocity = tf.sub(tf.mul(velocity, mu), step);
        const increment = nesterov ? tf.sub(tf.mul(newVelocity, mu), step) : newVelocity;
        return { variable: tf.add(variable, increment), slots: [newVelocity] };
      };
    },
  };
}
