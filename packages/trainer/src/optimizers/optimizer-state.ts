import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';

/**
 * A multi-replica optimiser's state, for checkpoints: replica r's statistics are row r of every
 * tensor, so a checkpoint can also be split or merged by replica.
 */
export interface ReplicaOptimizerState {
  /** The optimiser it belongs to: its name, or its kinds' joined by `+` (`Nadam+Adam`). */
  readonly optimizer: string;
  /** Updates applied so far. */
  readonly step: number;
  /**
   * Per statistic, by its Keras name (`momentum`, `velocity`, …), one tensor per variable in
   * the variables' order, each of that variable's shape `(replicas, …)`. Empty lists before the
   * first update.
   */
  readonly slots: Readonly<Record<string, readonly tf.Tensor[]>>;
}

/**
 * Checks a state before {@link ReplicaOptimizer.restore} and returns the variables' shapes it
 * implies (`builtShapes` if given; undefined when neither the optimiser nor the state knows
 * them, e.g. plain SGD, which keeps no statistics).
 *
 * @throws InvalidArgumentError for another optimiser, a step that is not a non-negative integer,
 *   missing or unknown slots, a non-float32 tensor or slots of different lengths; ShapeError for
 *   tensors that do not fit the variables or each other.
 */
export function checkRestoredState(
  state: ReplicaOptimizerState,
  optimizer: string,
  slotNames: readonly string[],
  builtShapes: readonly (readonly number[])[] | undefined,
): readonly (readonly number[])[] | undefined {
  if (state.optimizer !== optimizer) {
    throw new InvalidArgumentError({
      argument: 'state.optimizer',
      problem: `expected the state of a ${optimizer} optimiser, got ${state.optimizer}`,
    });
  }
  if (!Number.isInteger(state.step) || state.step < 0) {
    throw new InvalidArgumentError({
      argument: 'state.step',
      problem: `expected a non-negative integer, got ${state.step}`,
    });
  }
  const names = Object.keys(state.slots);
  if (names.length !== slotNames.length || !slotNames.every((name) => name in state.slots)) {
    throw new InvalidArgumentError({
      argument: 'state.slots',
      problem: `expected the statistics [${slotNames.join(', ')}], got [${names.join(', ')}]`,
    });
  }
  const counts = slotNames.map((name) => state.slots[name].length);
  const count = counts[0] ?? 0;
  if (counts.some((other) => other !== count)) {
    throw new InvalidArgumentError({
      argument: 'state.slots',
      problem: `expected as many tensors for every statistic, got [${counts.join(', ')}]`,
    });
  }
  if (count === 0) {
    if (slotNames.length > 0 && builtShapes !== undefined) {
      throw new InvalidArgumentError({
        argument: 'state.slots',
        problem: `expected one tensor per variable (${builtShapes.length}), got none`,
      });
    }
    return builtShapes;
  }
  const shapes = builtShapes ?? state.slots[slotNames[0] ?? ''].map((tensor) => tensor.shape);
  for (const name of slotNames) {
    const tensors = state.slots[name];
    if (tensors.length !== shapes.length) {
      throw new InvalidArgumentError({
        argument: `state.slots.${name}`,
        problem: `expected one tensor per variable (${shapes.length}), got ${tensors.length}`,
      });
    }
    tensors.forEach((tensor, index) => {
      const quantity = `state.slots.${name}[${index}]`;
      if (tensor.isDisposed || tensor.dtype !== 'float32') {
        throw new InvalidArgumentError({
          argument: quantity,
          problem: tensor.isDisposed
            ? 'the tensor has been disposed'
            : `expected a float32 tensor, got ${tensor.dtype}`,
        });
      }
      const expected = shapes[index] ?? [];
      const fits =
        tensor.rank >= 1 &&
        tensor.shape.length === expected.length &&
        tensor.shape.every((size, axis) => size === expected[axis]);
      if (!fits) {
        throw new ShapeError({ quantity, expected, actual: tensor.shape, axes: '(replicas, …)' });
      }
    });
  }
  return shapes;
}
