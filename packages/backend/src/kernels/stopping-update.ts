import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';

/**
 * Kernel name of the fused per-replica stopping update, which a backend may register
 * (`@partonfit/backend-native` does) so that the trainer's early stopping costs one kernel per
 * step instead of some thirty-five. For each replica, with `epoch` and the thresholds as
 * attributes ({@link StoppingUpdateAttrs}):
 *
 * ```text
 * ended    = epochLimit ≤ epoch            stopped = stopEpoch ≥ 0 or ended
 * diverged = not (training and validation finite) and not stopped
 * best     = (counting > 0 or validationChi2PerPoint < thresholdChi2)
 *            and validation < bestValidation − delta and positivity < positivityThreshold
 *            and not (stopped or diverged)
 * waiting′ = waiting if ended, else 0 if best, else waiting + counting
 * bestValidation′, bestEpoch′, counting′ = validation, epoch, 1 where best
 * stopEpoch′ = epoch where diverged or (waiting′ > patience and not stopped)
 * failed′    = 1 where diverged
 * ```
 *
 * in float32 (`bestValidation − delta` rounded as a tensor subtraction). Inputs
 * {@link StoppingUpdateInputs}, each `(replicas)` float32; outputs, each `(replicas)`, in the
 * order of {@link STOPPING_UPDATE_OUTPUTS}.
 */
export const STOPPING_UPDATE_KERNEL = 'PartonfitStoppingUpdate';

/** The state a stopping update reads and writes, in the order of the kernel's outputs. */
export const STOPPING_STATE = [
  'bestValidation',
  'bestEpoch',
  'stopEpoch',
  'waiting',
  'counting',
  'failed',
] as const;

/** The outputs of {@link STOPPING_UPDATE_KERNEL}: the new state, then `best` (1 / 0). */
export const STOPPING_UPDATE_OUTPUTS = [...STOPPING_STATE, 'best'] as const;

/** The step's losses a stopping update reads. */
export const STOPPING_LOSSES = [
  'training',
  'validation',
  'validationChi2PerPoint',
  'positivity',
] as const;

/**
 * The inputs of {@link STOPPING_UPDATE_KERNEL}: the step's losses, the state, each replica's
 * patience in epochs and its last epoch (`epochLimit`, +Infinity when the replicas have none).
 */
export type StoppingUpdateInputs = Record<
  (typeof STOPPING_LOSSES)[number] | (typeof STOPPING_STATE)[number] | 'patience' | 'epochLimit',
  tf.TensorInfo
>;

/** The attributes of {@link STOPPING_UPDATE_KERNEL}. */
export type StoppingUpdateAttrs = {
  /** The step's epoch, 0-based. */
  readonly epoch: number;
  readonly thresholdChi2: number;
  readonly positivityThreshold: number;
  /** The improvement that counts (`stopping_delta`). */
  readonly delta: number;
};

/**
 * Kernel name of the snapshot of the best weights: for each weight i (inputs `weight<i>` and
 * `bestWeight<i>`, the weight holding the replicas `[starts[i], starts[i] + rows)`), the rows
 * whose `best` flag (input `best`, `(replicas)`) is 1 take the weight's values, the others keep
 * the snapshot's. Outputs: the new snapshots, in the order of the weights.
 */
export const KEEP_BEST_ROWS_KERNEL = 'PartonfitKeepBestRows';

/** The attributes of {@link KEEP_BEST_ROWS_KERNEL}. */
export type KeepBestRowsAttrs = {
  /** Each weight's first replica. */
  readonly starts: number[];
};

function vectorOf(kernel: string, name: string, tensor: tf.TensorInfo, replicas: number): void {
  if (tensor.dtype !== 'float32') {
    throw new InvalidArgumentError({
      argument: `${kernel}: ${name}`,
      problem: `expected a float32 tensor, got ${tensor.dtype}`,
    });
  }
  if (tensor.shape.length !== 1 || tensor.shape[0] !== replicas) {
    throw new ShapeError({
      quantity: `${kernel}: ${name}`,
      expected: [replicas],
      actual: tensor.shape,
      axes: '(replicas)',
    });
  }
}

/**
 * Checks a stopping update's inputs (each `(replicas)` float32) and attributes (finite numbers).
 *
 * @returns the number of replicas
 * @throws ShapeError or InvalidArgumentError naming the input or attribute
 */
export function checkStoppingUpdate(
  kernel: string,
  inputs: Partial<StoppingUpdateInputs>,
  attrs: tf.NamedAttrMap,
): number {
  const replicas = inputs.validation?.shape[0] ?? 0;
  for (const name of [...STOPPING_LOSSES, ...STOPPING_STATE, 'patience', 'epochLimit'] as const) {
    const tensor = inputs[name];
    if (tensor === undefined) {
      throw new InvalidArgumentError({ argument: `${kernel}: ${name}`, problem: 'missing' });
    }
    vectorOf(kernel, name, tensor, replicas);
  }
  for (const name of ['epoch', 'thresholdChi2', 'positivityThreshold', 'delta'] as const) {
    const value = attrs[name];
    if (typeof value !== 'number' || Number.isNaN(value)) {
      throw new InvalidArgumentError({
        argument: `${kernel} attribute ${name}`,
        problem: `expected a number, got ${typeof value === 'number' ? value : typeof value}`,
      });
    }
  }
  return replicas;
}

/**
 * Checks a best-weights snapshot's inputs: `best` `(replicas)`, then each weight and its
 * snapshot of one shape `(rows, …)` with its rows inside the replicas.
 *
 * @returns each weight's first replica, number of rows, tensor and snapshot
 * @throws ShapeError or InvalidArgumentError naming the input
 */
export function checkKeepBestRows(
  kernel: string,
  inputs: tf.NamedTensorInfoMap,
  attrs: tf.NamedAttrMap,
): {
  readonly replicas: number;
  readonly weights: {
    start: number;
    rows: number;
    weight: tf.TensorInfo;
    snapshot: tf.TensorInfo;
  }[];
} {
  const { best } = inputs;
  if (best === undefined) {
    throw new InvalidArgumentError({ argument: `${kernel}: best`, problem: 'missing' });
  }
  const replicas = best.shape[0] ?? 0;
  vectorOf(kernel, 'best', best, replicas);
  const starts = attrs.starts;
  if (!Array.isArray(starts)) {
    throw new InvalidArgumentError({
      argument: `${kernel} attribute starts`,
      problem: 'expected the first replica of each weight',
    });
  }
  const weights = (starts as number[]).map((start, i) => {
    const weight = inputs[`weight${i}`];
    const snapshot = inputs[`bestWeight${i}`];
    if (weight === undefined || snapshot === undefined) {
      throw new InvalidArgumentError({
        argument: `${kernel}: weight${i}`,
        problem: 'expected a weight and its snapshot for every start',
      });
    }
    const rows = weight.shape[0] ?? 0;
    const sameShape =
      weight.shape.length === snapshot.shape.length &&
      weight.shape.every((axis, d) => axis === snapshot.shape[d]);
    if (!sameShape || weight.dtype !== 'float32' || snapshot.dtype !== 'float32') {
      throw new ShapeError({
        quantity: `${kernel}: bestWeight${i}`,
        expected: weight.shape,
        actual: snapshot.shape,
        axes: "the weight's shape (rows, …), float32",
      });
    }
    if (!Number.isInteger(start) || start < 0 || start + rows > replicas) {
      throw new InvalidArgumentError({
        argument: `${kernel} attribute starts[${i}]`,
        problem: `rows [${start}, ${start + rows}) are not inside the ${replicas} replicas`,
      });
    }
    return { start, rows, weight, snapshot };
  });
  return { replicas, weights };
}

/** Whether the active backend registers both fused stopping kernels. */
export function hasStoppingKernels(): boolean {
  const backend = tf.getBackend();
  const registered = (name: string) =>
    (tf.getKernel(name, backend) as tf.KernelConfig | undefined) !== undefined;
  return registered(STOPPING_UPDATE_KERNEL) && registered(KEEP_BEST_ROWS_KERNEL);
}

/**
 * Runs {@link STOPPING_UPDATE_KERNEL} (check {@link hasStoppingKernels} first).
 *
 * @returns the new state and `best`, in the order of {@link STOPPING_UPDATE_OUTPUTS}
 */
export function runStoppingUpdate(
  inputs: Record<keyof StoppingUpdateInputs, tf.Tensor1D>,
  attrs: StoppingUpdateAttrs,
): tf.Tensor1D[] {
  return tf
    .engine()
    .runKernel(STOPPING_UPDATE_KERNEL, { ...inputs }, { ...attrs }) as unknown as tf.Tensor1D[];
}

/**
 * Runs {@link KEEP_BEST_ROWS_KERNEL}: each snapshot with the rows of `best` replicas taken from
 * its weight.
 *
 * @param weights - each weight, its snapshot and its first replica
 * @returns the new snapshots, in the order of `weights`
 */
export function runKeepBestRows(
  best: tf.Tensor1D,
  weights: readonly {
    readonly weight: tf.Tensor;
    readonly bestWeight: tf.Tensor;
    readonly start: number;
  }[],
): tf.Tensor[] {
  const inputs: tf.NamedTensorMap = { best };
  weights.forEach(({ weight, bestWeight }, i) => {
    inputs[`weight${i}`] = weight;
    inputs[`bestWeight${i}`] = bestWeight;
  });
  const outputs: tf.Tensor | tf.Tensor[] = tf.engine().runKernel(KEEP_BEST_ROWS_KERNEL, inputs, {
    starts: weights.map(({ start }) => start),
  });
  return Array.isArray(outputs) ? outputs : [outputs];
}
