import * as tf from '@tensorflow/tfjs-core';
import { ACTIVATIONS, oneOf } from '@partonfit/core';

/** The name of an activation a runcard may give (`parameters.activation_per_layer`). */
export type ActivationName = (typeof ACTIVATIONS)[number];

/** The slope of `leaky_relu` for negative inputs (upstream's `leaky_relu`, α = 0.2). */
export const LEAKY_RELU_ALPHA = 0.2;

/**
 * Each activation as an elementwise function of tensors, differentiable by tfjs autodiff:
 *
 * - `linear`: x; `tanh`; `sigmoid`: 1/(1 + e⁻ˣ); `relu`: max(x, 0);
 * - `elu`: x for x > 0, eˣ − 1 otherwise; `softplus`: log(1 + eˣ);
 * - `square`: x²; `leaky_relu`: x for x > 0, 0.2·x otherwise;
 * - `modified_tanh`: |x|·tanh x (upstream's non-saturating tanh).
 */
export const ACTIVATION_FUNCTIONS: Readonly<Record<ActivationName, (x: tf.Tensor) => tf.Tensor>> = {
  linear: (x) => x,
  tanh: (x) => tf.tanh(x),
  sigmoid: (x) => tf.sigmoid(x),
  relu: (x) => tf.relu(x),
  elu: (x) => tf.elu(x),
  softplus: (x) => tf.softplus(x),
  square: (x) => tf.square(x),
  leaky_relu: (x) => tf.leakyRelu(x, LEAKY_RELU_ALPHA),
  modified_tanh: (x) => tf.mul(tf.abs(x), tf.tanh(x)),
};

/** Whether `name` is one of the activations partonfit knows ({@link ACTIVATION_FUNCTIONS}). */
export function isActivationName(name: string): name is ActivationName {
  return (ACTIVATIONS as readonly string[]).includes(name);
}

/**
 * Applies the activation `name` elementwise.
 *
 * @param x - any shape
 * @returns the same shape
 */
export function applyActivation(name: ActivationName, x: tf.Tensor): tf.Tensor {
  return ACTIVATION_FUNCTIONS[checkActivation(name)](x);
}

/**
 * The activation `name` names (also as tfjs' saved configs rewrite it, e.g. `leakyRelu`), else
 * an `InvalidArgumentError` naming the choices.
 */
export function checkActivation(name: string, argument = 'activation'): ActivationName {
  return oneOf(name, ACTIVATIONS, argument, { loose: true });
}
