/**
 * Feature scaling (`parameters.feature_scaling_points`): the monotone PCHIP map of x onto
 * [−1, 1] built once from the FK x-values, the network input features with and without it, and
 * the subtraction of the network output at x = 1.
 *
 * How the trainer uses it: at set-up, `featureScaler(all FK x-values, k)`; the x points of the
 * fit get x = 1 appended if absent; the network input is `scaledXFeatures(scaler, x)`
 * `(points, 1)` (instead of `logXFeatures(x)` `(points, 2)`), the first MultiDense has one
 * input feature, a `SubtractReference` at the x = 1 point follows the last MultiDense, and the
 * Preprocessing layer runs with `largeX: false` on `xColumn(x)`.
 *
 * @packageDocumentation
 */
export {
  FEATURE_SCALING_SMALLEST_X,
  featureScaler,
  roundHalfToEven,
  type FeatureScaler,
} from './feature-scaler.js';
export { logXFeatures, NETWORK_INPUTS, scaledXFeatures, xColumn } from './network-input.js';
export { createPchip, type Pchip } from './pchip.js';
export {
  SubtractReference,
  subtractReference,
  type SubtractReferenceArgs,
} from './subtract-reference.js';
