import {
  InvalidArgumentError,
  OBSERVABLE_OPERATIONS,
  OPERAND_COUNTS,
  type ObservableOperation,
} from '@partonfit/core';
import type { FkTable } from './fk-table.js';

/**
 * A dataset's theory prediction: operands built from FK tables, combined by an operation.
 * Each operand is a list of tables concatenated along the data axis; the operands then
 * combine point by point (NULL a; ADD a + b; RATIO a / b; ASY (a − b)/(a + b);
 * SMN (a + b)/(c + d); COM (a₁ + … + a₁₀)/(a₁₁ + … + a₂₀); SMT a₁ + … + a₁₀).
 *
 * An operand with a single data point is broadcast against the others (a total cross section
 * normalising a distribution), as upstream n3fit and validphys do; every other operand has the
 * observable's number of points.
 */
export interface Observable {
  /** Dataset name, for messages. */
  readonly name: string;
  /** How the operands combine. */
  readonly operation: ObservableOperation;
  /** The operands; each a non-empty list of tables concatenated along the data axis. */
  readonly operands: readonly (readonly FkTable[])[];
}

/** Whether `value` names one of core's {@link OBSERVABLE_OPERATIONS}. */
export function isObservableOperation(value: string): value is ObservableOperation {
  return (OBSERVABLE_OPERATIONS as readonly string[]).includes(value);
}

/**
 * What is wrong with giving `count` operands to `operation`, or undefined when it fits.
 */
export function operandCountProblem(
  operation: ObservableOperation,
  count: number,
): string | undefined {
  const expected = OPERAND_COUNTS[operation];
  if (count === expected) return undefined;
  return `operation ${operation} takes ${expected} operand${expected === 1 ? '' : 's'}, got ${count}`;
}

/** Number of data points of an operand: the sum over its tables. */
export function operandNdata(operand: readonly FkTable[]): number {
  return operand.reduce((sum, table) => sum + table.ndata, 0);
}

/** Number of data points of an observable: the largest operand's (1-point operands broadcast). */
export function observableNdata(observable: Observable): number {
  return Math.max(...observable.operands.map(operandNdata));
}

/**
 * An observable, checked: the operand count fits the operation, no operand is empty, and every
 * operand has the observable's number of points or a single point.
 *
 * @throws InvalidArgumentError - naming the observable, for a wrong operand count, an empty
 *   operand or operands of incompatible lengths
 */
export function createObservable(
  name: string,
  operation: ObservableOperation,
  operands: readonly (readonly FkTable[])[],
): Observable {
  const countProblem = operandCountProblem(operation, operands.length);
  if (countProblem !== undefined) {
    throw new InvalidArgumentError({ argument: `operands of ${name}`, problem: countProblem });
  }
  const empty = operands.findIndex((operand) => operand.length === 0);
  if (empty !== -1) {
    throw new InvalidArgumentError({
      argument: `operands of ${name}`,
      problem: `operand ${empty} has no FK table`,
    });
  }
  const lengths = operands.map(operandNdata);
  const ndata = Math.max(...lengths);
  if (lengths.some((length) => length !== ndata && length !== 1)) {
    throw new InvalidArgumentError({
      argument: `operands of ${name}`,
      problem: `operands have ${lengths.join(', ')} data points: each must have ${ndata} or 1`,
    });
  }
  return { name, operation, operands };
}
