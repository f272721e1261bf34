import type * as tf from '@tensorflow/tfjs-core';

/** One per-element statistic an optimiser keeps for every variable. */
export interface SlotSpec {
  /** Keras's name for it, e.g. `momentum`, `velocity`, `accumulator`. */
  readonly name: string;
  /** Its value before the first update. */
  readonly initialValue: number;
}

/** A variable's new value and its new slots, in the order of {@link UpdateRule.slots}. */
export interface UpdatedVariable {
  readonly variable: tf.Tensor;
  readonly slots: readonly tf.Tensor[];
}

/**
 * The update of one variable at one step, from its value, its (clipped) gradient and its slots,
 * all of the variable's shape `(replicas, …)`. Element-wise only, so that replicas stay
 * independent. Returns new tensors; runs inside the caller's `tf.tidy`.
 */
export type VariableUpdate = (
  variable: tf.Tensor,
  gradient: tf.Tensor,
  slots: readonly tf.Tensor[],
) => UpdatedVariable;

/** One optimiser's formula, written as plain tensor operations. */
export interface UpdateRule {
  /** The statistics kept per variable, each with the variable's shape. */
  readonly slots: readonly SlotSpec[];
  /**
   * The update of step `step` (1-based, shared by all replicas and variables): the step's
   * scalar factors (bias corrections, momentum schedules) are computed here, on the host in
   * float64, so that no value is read back from the device, and uploaded once as scalar
   * tensors for all variables. Called inside the step's `tf.tidy`.
   */
  forStep(step: number): VariableUpdate;
}
