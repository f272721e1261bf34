import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((size, axis) => size === b[axis]);
}

function checkFloatTensor(argument: string, tensor: tf.Tensor): void {
  if (tensor.isDisposed) {
    throw new InvalidArgumentError({ argument, problem: 'the tensor has been disposed' });
  }
  if (tensor.dtype !== 'float32') {
    throw new InvalidArgumentError({
      argument,
      problem: `expected a float32 tensor, got ${tensor.dtype}`,
    });
  }
}

/** The model's replicas and the rows `[start, end)` each variable holds. */
export interface VariableRows {
  readonly replicas: number;
  readonly of: (index: number) => readonly [number, number];
}

/**
 * Checks the arguments of one optimiser update, from shapes and dtypes only (nothing is read
 * from the device), and returns the number of replicas.
 *
 * @param variables - each `(replicas, …)`, all with the same number of replicas, or each with
 *   its rows' number when `rows` gives them
 * @param gradients - one per variable, each of its variable's shape
 * @param active - `(replicas)` or undefined
 * @param builtShapes - the shapes of the variables the optimiser was built for, if it was
 * @param rows - the rows each variable holds, when not every variable holds every replica
 * @throws InvalidArgumentError for mismatched counts, an empty list, a disposed or non-float32
 *   tensor; ShapeError for a shape that does not fit.
 */
export function checkUpdateInputs(
  variables: readonly tf.Variable[],
  gradients: readonly tf.Tensor[],
  active: tf.Tensor | undefined,
  builtShapes: readonly (readonly number[])[] | undefined,
  rows?: VariableRows,
): number {
  if (variables.length === 0) {
    throw new InvalidArgumentError({ argument: 'variables', problem: 'expected at least one' });
  }
  if (gradients.length !== variables.length) {
    throw new InvalidArgumentError({
      argument: 'gradients',
      problem: `expected one gradient per variable (${variables.length}), got ${gradients.length}`,
    });
  }
  if (builtShapes !== undefined && builtShapes.length !== variables.length) {
    throw new InvalidArgumentError({
      argument: 'variables',
      problem: `the optimiser was built for ${builtShapes.length} variables, got ${variables.length}`,
    });
  }
  const [firstRows = 0] = variables[0].shape;
  const replicas = rows?.replicas ?? firstRows;
  variables.forEach((variable, index) => {
    checkFloatTensor(`variables[${index}]`, variable);
    const [start, end] = rows?.of(index) ?? [0, replicas];
    const expected = builtShapes?.[index] ?? [end - start, ...variable.shape.slice(1)];
    if (variable.rank < 1 || !sameShape(variable.shape, expected)) {
      throw new ShapeError({
        quantity: `variables[${index}]`,
        expected,
        actual: variable.shape,
        axes: '(replicas, …)',
      });
    }
    const gradient = gradients[index];
    checkFloatTensor(`gradients[${index}]`, gradient);
    if (!sameShape(gradient.shape, variable.shape)) {
      throw new ShapeError({
        quantity: `gradients[${index}]`,
        expected: variable.shape,
        actual: gradient.shape,
        axes: '(replicas, …), the shape of its variable',
      });
    }
  });
  if (active !== undefined) {
    if (active.isDisposed) {
      throw new InvalidArgumentError({
        argument: 'options.active',
        problem: 'the tensor has been disposed',
      });
    }
    if (!sameShape(active.shape, [replicas])) {
      throw new ShapeError({
        quantity: 'options.active',
        expected: [replicas],
        actual: active.shape,
        axes: '(replicas)',
      });
    }
  }
  return replicas;
}
