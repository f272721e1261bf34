import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';

/**
 * Kernel name of the fused Adam/Nadam update of one variable of a multi-replica model, which a
 * backend may register (`@partonfit/backend-native` does) so that an optimiser step costs one
 * kernel per variable instead of some twenty. For each row r with `update[r]` = 1, with the
 * row's factors `(clipnorm, momentumWeight, gradientWeight, rate, velocityWeight)`:
 *
 * ```text
 * g  = gradient[r] · clipnorm / max(‖gradient[r]‖₂, clipnorm)   (g = gradient[r] when clipnorm ≤ 0)
 * m′ = m + (g − m) · oneMinusBeta1
 * v′ = v + (g² − v) · oneMinusBeta2
 * m̂ = m′ · momentumWeight (+ g · gradientWeight when that is not 0)
 * v̂ = v′ · velocityWeight (v′ itself when that is 1)
 * w′ = w − (m̂ · rate) / (√v̂ + epsilon)          (m̂ itself when rate is 1)
 * ```
 *
 * every operation in float32 in this order, as the trainer's tensor formulation computes it; a
 * row with `update[r]` = 0 keeps its weights and statistics. Rows never mix: each row's numbers
 * depend only on that row's inputs.
 *
 * Inputs {@link AdamFamilyUpdateInputs}, attributes {@link AdamFamilyUpdateAttrs}, outputs
 * `[variable, momentum, velocity]`, each of the variable's shape `(rows, …)`.
 */
export const ADAM_FAMILY_UPDATE_KERNEL = 'PartonfitAdamFamilyUpdate';

/** The number of per-row factors of {@link ADAM_FAMILY_UPDATE_KERNEL}. */
export const ADAM_FAMILY_ROW_FACTORS = 5;

/** The inputs of {@link ADAM_FAMILY_UPDATE_KERNEL}, float32. */
export interface AdamFamilyUpdateInputs {
  /** The weights, `(rows, …)`. */
  readonly variable: tf.TensorInfo;
  /** d loss / d weights, the variable's shape. */
  readonly gradient: tf.TensorInfo;
  /** The first-moment statistic, the variable's shape. */
  readonly momentum: tf.TensorInfo;
  /** The second-moment statistic, the variable's shape. */
  readonly velocity: tf.TensorInfo;
  /**
   * Each row's `(clipnorm, momentumWeight, gradientWeight, rate, velocityWeight)`,
   * `(rows, 5)`.
   */
  readonly factors: tf.TensorInfo;
  /** `(rows)`: 1 where the row is updated, 0 where it keeps its values. */
  readonly update: tf.TensorInfo;
}

/** The attributes of {@link ADAM_FAMILY_UPDATE_KERNEL}: the float32 constants of the formula. */
export type AdamFamilyUpdateAttrs = {
  readonly oneMinusBeta1: number;
  readonly oneMinusBeta2: number;
  readonly epsilon: number;
};

/** The sizes of an Adam-family update, checked to fit together. */
export interface AdamFamilyUpdate {
  readonly rows: number;
  /** Elements of one row of the variable. */
  readonly rowSize: number;
  readonly oneMinusBeta1: number;
  readonly oneMinusBeta2: number;
  readonly epsilon: number;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((axis, i) => axis === b[i]);
}

function constant(kernel: string, attrs: tf.NamedAttrMap, name: keyof AdamFamilyUpdateAttrs) {
  const value = attrs[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute ${name}`,
      problem: `expected a finite number, got ${typeof value === 'number' ? value : typeof value}`,
    });
  }
  return value;
}

/**
 * Checks the inputs and attributes of an Adam-family update: every input float32, the gradient
 * and statistics of the variable's shape, `(rows, 5)` factors and `(rows)` update flags.
 *
 * @throws ShapeError for a misshapen input; InvalidArgumentError for another dtype or a
 *   missing constant
 */
export function checkAdamFamilyUpdate(
  kernel: string,
  inputs: AdamFamilyUpdateInputs,
  attrs: tf.NamedAttrMap,
): AdamFamilyUpdate {
  const { variable } = inputs;
  for (const [name, tensor] of Object.entries(inputs) as [string, tf.TensorInfo][]) {
    if (tensor.dtype !== 'float32') {
      throw new InvalidArgumentError({
        argument: `${kernel}: ${name}`,
        problem: `expected a float32 tensor, got ${tensor.dtype}`,
      });
    }
  }
  const [rows = 0, ...rest] = variable.shape;
  if (variable.shape.length < 1) {
    throw new ShapeError({
      quantity: `${kernel}: variable`,
      expected: [null],
      actual: variable.shape,
      axes: '(rows, …)',
    });
  }
  for (const name of ['gradient', 'momentum', 'velocity'] as const) {
    if (!sameShape(inputs[name].shape, variable.shape)) {
      throw new ShapeError({
        quantity: `${kernel}: ${name}`,
        expected: variable.shape,
        actual: inputs[name].shape,
        axes: "the variable's shape (rows, …)",
      });
    }
  }
  if (!sameShape(inputs.factors.shape, [rows, ADAM_FAMILY_ROW_FACTORS])) {
    throw new ShapeError({
      quantity: `${kernel}: factors`,
      expected: [rows, ADAM_FAMILY_ROW_FACTORS],
      actual: inputs.factors.shape,
      axes: '(rows, [clipnorm, momentumWeight, gradientWeight, rate, velocityWeight])',
    });
  }
  if (!sameShape(inputs.update.shape, [rows])) {
    throw new ShapeError({
      quantity: `${kernel}: update`,
      expected: [rows],
      actual: inputs.update.shape,
      axes: '(rows)',
    });
  }
  return {
    rows,
    rowSize: rest.reduce((product, axis) => product * axis, 1),
    oneMinusBeta1: constant(kernel, attrs, 'oneMinusBeta1'),
    oneMinusBeta2: constant(kernel, attrs, 'oneMinusBeta2'),
    epsilon: constant(kernel, attrs, 'epsilon'),
  };
}

/** Whether the active backend registers {@link ADAM_FAMILY_UPDATE_KERNEL}. */
export function hasAdamFamilyUpdateKernel(): boolean {
  return (
    (tf.getKernel(ADAM_FAMILY_UPDATE_KERNEL, tf.getBackend()) as tf.KernelConfig | undefined) !==
    undefined
  );
}

/**
 * Runs {@link ADAM_FAMILY_UPDATE_KERNEL} on the active backend (check
 * {@link hasAdamFamilyUpdateKernel} first).
 *
 * @returns `[variable, momentum, velocity]`, new tensors of the variable's shape
 */
export function runAdamFamilyUpdate(
  inputs: {
    readonly variable: tf.Tensor;
    readonly gradient: tf.Tensor;
    readonly momentum: tf.Tensor;
    readonly velocity: tf.Tensor;
    readonly factors: tf.Tensor2D;
    readonly update: tf.Tensor1D;
  },
  attrs: AdamFamilyUpdateAttrs,
): [tf.Tensor, tf.Tensor, tf.Tensor] {
  const outputs = tf
    .engine()
    .runKernel(ADAM_FAMILY_UPDATE_KERNEL, { ...inputs }, { ...attrs }) as unknown as tf.Tensor[];
  const [variable, momentum, velocity] = outputs as [tf.Tensor, tf.Tensor, tf.Tensor];
  return [variable, momentum, velocity];
}
