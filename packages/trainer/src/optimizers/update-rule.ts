import * as tf from '@tensorflow/tfjs-core';
import type { AdamFamilyUpdateAttrs } from '@partonfit/backend';
import { broadcastsReplicaColumns } from '../replica-mask/replica-mask.js';

/** The model rows `[start, end)` a variable holds: its first axis is those replicas. */
export type RowRange = readonly [number, number];

/**
 * A factor of one step that may differ between replicas (a learning rate, a bias-corrected step
 * size), given for every model row: one scalar when all rows share the value — exactly the
 * single-replica optimiser's tensor — else each row's value as a `(rows, 1, …)` column that
 * multiplications broadcast, or on tfjs-cpu spread over the variable's shape (see
 * `broadcastsReplicaColumns`; cached per rows and shape for the step). Every row gets the float32 of the same float64
 * number either way, so a replica's update does not depend on the others' settings. Create it
 * inside the step's `tf.tidy`.
 */
export class RowFactor {
  private readonly values: readonly number[];
  private readonly scalar: tf.Scalar | undefined;
  private readonly spread = new Map<string, tf.Tensor>();

  /** @param values - one per model row, `(replicas)` */
  constructor(values: readonly number[]) {
    this.values = values;
    const first = values[0] ?? 0;
    this.scalar = values.every((value) => value === first) ? tf.scalar(first) : undefined;
  }

  /** Whether every one of the model rows `rows` has exactly `value`. */
  isEverywhere(rows: RowRange, value: number): boolean {
    const [start, end] = rows;
    return this.values.slice(start, end).every((each) => each === value);
  }

  /** The factor for a variable of `shape` holding the model rows `rows`. */
  of(rows: RowRange, shape: readonly number[]): tf.Tensor {
    if (this.scalar !== undefined) return this.scalar;
    const key = `${rows.join(',')}:${shape.join(',')}`;
    const cached = this.spread.get(key);
    if (cached !== undefined) return cached;
    const [start, end] = rows;
    const values = this.values.slice(start, end);
    const factor = broadcastsReplicaColumns()
      ? tf.tensor(values, [end - start, ...shape.slice(1).map(() => 1)])
      : tf.reshape(
          tf.matMul(
            tf.tensor2d(values, [end - start, 1]),
            tf.ones([1, shape.slice(1).reduce((a, b) => a * b, 1)]),
          ),
          [...shape],
        );
    this.spread.set(key, factor);
    return factor;
  }
}

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
 * all of the variable's shape `(replicas, …)`, and the model rows the variable holds (for
 * factors that differ between replicas). Element-wise only, so that replicas stay independent.
 * Returns new tensors; runs inside the caller's `tf.tidy`.
 */
export type VariableUpdate = (
  variable: tf.Tensor,
  gradient: tf.Tensor,
  slots: readonly tf.Tensor[],
  rows: RowRange,
) => UpdatedVariable;

/** One optimiser's formula, written as plain tensor operations. */
export interface UpdateRule {
  /** The statistics kept per variable, each with the variable's shape. */
  readonly slots: readonly SlotSpec[];
  /**
   * The update of step `step` (1-based, shared by all replicas and variables): the step's
   * factors (bias corrections, momentum schedules, times each replica's learning rate) are
   * computed here, on the host in float64, so that no value is read back from the device, and
   * uploaded once for all variables ({@link RowFactor}). Called inside the step's `tf.tidy`.
   */
  forStep(step: number): VariableUpdate;
  /**
   * The rule as the fused Adam-family kernel takes it (`ADAM_FAMILY_UPDATE_KERNEL` of
   * `@partonfit/backend`), for the rules it computes: the formula's constants and each model
   * row's factors of step `step`. The optimiser uses it where the backend registers the kernel.
   */
  readonly fused?: FusedAdamFamily;
}

/** An Adam-family rule's constants and per-row factors, for the fused kernel. */
export interface FusedAdamFamily {
  readonly constants: AdamFamilyUpdateAttrs;
  /** Each model row's `(momentum, gradient, rate, velocity)` weights of step `step`. */
  rowFactors(step: number): readonly {
    readonly momentum: number;
    readonly gradient: number;
    readonly rate: number;
    readonly velocity: number;
  }[];
}
