import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@partonfit/core';
import type { FeatureScaler } from './feature-scaler.js';

/** The number of network input features without feature scaling: `[x, log x]`. */
export const NETWORK_INPUTS = 2;

/**
 * The network input without feature scaling: `[x, log x]` at every point (upstream's `x_logx`),
 * with log x taken in float64 before rounding to float32.
 *
 * @param x - the x points, each in (0, 1], `(points)`
 * @returns `(points, 2)`
 */
export function logXFeatures(x: ArrayLike<number>): tf.Tensor2D {
  checkX(x);
  const features = new Float32Array(2 * x.length);
  for (let p = 0; p < x.length; p++) {
    features[2 * p] = x[p];
    features[2 * p + 1] = Math.log(x[p]);
  }
  return tf.tensor2d(features, [x.length, 2]);
}

/**
 * The network input with feature scaling: `[s(x)]` at every point, s from
 * {@link featureScaler}, computed in float64 on the host once per fit (the x points of a fit
 * never change, so the scaling never runs in a training step).
 *
 * @param x - the x points, each in (0, 1], `(points)`
 * @returns `(points, 1)`
 */
export function scaledXFeatures(scaler: FeatureScaler, x: ArrayLike<number>): tf.Tensor2D {
  checkX(x);
  return tf.tensor2d(Float32Array.from(scaler.scaleAll(x)), [x.length, 1]);
}

/**
 * x as a column, the input of the preprocessing layer.
 *
 * @param x - the x points, each in (0, 1], `(points)`
 * @returns `(points, 1)`
 */
export function xColumn(x: ArrayLike<number>): tf.Tensor2D {
  checkX(x);
  return tf.tensor2d(Float32Array.from(x), [x.length, 1]);
}

function checkX(x: ArrayLike<number>): void {
  if (x.length === 0)
    throw new InvalidArgumentError({ argument: 'x', problem: 'no x points given' });
  for (let p = 0; p < x.length; p++) {
    if (!(x[p] > 0 && x[p] <= 1)) {
      throw new InvalidArgumentError({
        argument: `x[${p}]`,
        problem: `expected an x in (0, 1], got ${x[p]}`,
      });
    }
  }
}
