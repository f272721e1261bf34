import {
  EVOLUTION_BASIS_SIZE,
  InvalidArgumentError,
  OBSERVABLE_OPERATIONS,
  OPERAND_COUNTS,
  ShapeError,
  type DisFkTensor,
  type FkTensor,
  type HadronicFkTensor,
  type ObservableOperation,
  type ObservableTensors,
} from '@partonfit/core';

/** A DIS table without its values: what a layer's config records. */
export type DisFkLayout = Omit<DisFkTensor, 'values'>;

/** A hadronic table without its values: what a layer's config records. */
export type HadronicFkLayout = Omit<HadronicFkTensor, 'values'>;

/** Either table layout. */
export type FkLayout = DisFkLayout | HadronicFkLayout;

/**
 * An observable without its FK values: names, sizes, x ranges, channels and the operation. A
 * layer rebuilt from a saved config has only this; its FK values arrive with the saved weights.
 */
export interface ObservableLayout {
  /** Dataset name, for messages. */
  readonly name: string;
  /** Number of data points of the combined observable. */
  readonly ndata: number;
  /** How the operands combine. */
  readonly operation: ObservableOperation;
  /** The operands; each is a list of tables concatenated along the data axis. */
  readonly operands: readonly (readonly FkLayout[])[];
}

/** Whether a table carries its FK values. */
export function hasValues(table: FkLayout | FkTensor): table is FkTensor {
  return 'values' in table;
}

/** Number of values of one table: `nx · channels · ndata` (DIS) or `nx² · channels · ndata`. */
export function fkSize(table: FkLayout): number {
  const xPoints = table.kind === 'dis' ? table.nx : table.nx * table.nx;
  return xPoints * table.channels.length * table.ndata;
}

/** Number of data points of one operand: the sum over its tables. */
export function operandSize(operand: readonly FkLayout[]): number {
  return operand.reduce((total, table) => total + table.ndata, 0);
}

/**
 * Checks an observable before any tensor is made: a known operation with its number of
 * operands, operands of `ndata` points (or 1, which broadcasts, as for a normalising total),
 * tables with positive sizes, channels inside the 14-flavour evolution basis, and, when values
 * are present, `values` of the right length holding only finite numbers.
 *
 * @throws InvalidArgumentError naming the observable, the table and the field
 * @throws ShapeError when a table's values have the wrong length
 */
export function validateObservable(observable: ObservableTensors | ObservableLayout): void {
  const where = `observable ${observable.name}`;
  const fail = (problem: string): never => {
    throw new InvalidArgumentError({ argument: where, problem });
  };
  if (!OBSERVABLE_OPERATIONS.includes(observable.operation)) {
    fail(
      `unknown operation '${observable.operation}', expected one of ${OBSERVABLE_OPERATIONS.join(', ')}`,
    );
  }
  if (!isPositiveInteger(observable.ndata))
    fail(`ndata must be a positive integer, got ${observable.ndata}`);
  const expectedOperands = OPERAND_COUNTS[observable.operation];
  if (observable.operands.length !== expectedOperands) {
    fail(
      `operation ${observable.operation} takes ${expectedOperands} operand(s), got ${observable.operands.length}`,
    );
  }
  observable.operands.forEach((operand, index) => {
    if (operand.length === 0) fail(`operand ${index} has no tables`);
    for (const table of operand) validateTable(table, `${where}, table ${table.name}`);
    const points = operandSize(operand);
    if (points !== observable.ndata && points !== 1) {
      fail(
        `operand ${index} has ${points} data points; expected ${observable.ndata} (or 1, broadcast)`,
      );
    }
  });
  if (!observable.operands.some((operand) => operandSize(operand) === observable.ndata)) {
    fail(`no operand has the observable's ${observable.ndata} data points`);
  }
}

function validateTable(table: FkLayout | FkTensor, where: string): void {
  const fail = (problem: string): never => {
    throw new InvalidArgumentError({ argument: where, problem });
  };
  if ((table.kind as string) !== 'dis' && (table.kind as string) !== 'hadronic') {
    fail(`kind must be 'dis' or 'hadronic', got '${table.kind}'`);
  }
  for (const field of ['ndata', 'nx'] as const) {
    if (!isPositiveInteger(table[field]))
      fail(`${field} must be a positive integer, got ${table[field]}`);
  }
  if (!Number.isInteger(table.xOffset) || table.xOffset < 0) {
    fail(`xOffset must be a non-negative integer, got ${table.xOffset}`);
  }
  if (table.channels.length === 0) fail('channels is empty');
  const flavours = table.kind === 'dis' ? table.channels : table.channels.flat();
  if (
    table.kind === 'hadronic' &&
    table.channels.some((pair) => (pair as readonly number[]).length !== 2)
  ) {
    fail('every hadronic channel must be a pair [first, second] of flavour indices');
  }
  const outside = flavours.find(
    (flavour) => !Number.isInteger(flavour) || flavour < 0 || flavour >= EVOLUTION_BASIS_SIZE,
  );
  if (outside !== undefined) {
    fail(`channel flavour ${outside} is outside the evolution basis 0…${EVOLUTION_BASIS_SIZE - 1}`);
  }
  if (!hasValues(table)) return;
  const expected = fkSize(table);
  if (table.values.length !== expected) {
    throw new ShapeError({
      quantity: `${where}: values`,
      expected: [expected],
      actual: [table.values.length],
      axes: table.kind === 'dis' ? '(x · channel · data)' : '(x1 · x2 · channel · data)',
    });
  }
  const bad = table.values.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) fail(`values[${bad}] is ${table.values[bad]}`);
}

function isPositiveInteger(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}

/** The layout of an observable, without its values. */
export function observableLayout(
  observable: ObservableTensors | ObservableLayout,
): ObservableLayout {
  return {
    name: observable.name,
    ndata: observable.ndata,
    operation: observable.operation,
    operands: observable.operands.map((operand) => operand.map(tableLayout)),
  };
}

function tableLayout(table: FkLayout | FkTensor): FkLayout {
  return table.kind === 'dis'
    ? {
        kind: 'dis',
        name: table.name,
        ndata: table.ndata,
        nx: table.nx,
        xOffset: table.xOffset,
        channels: [...table.channels],
      }
    : {
        kind: 'hadronic',
        name: table.name,
        ndata: table.ndata,
        nx: table.nx,
        xOffset: table.xOffset,
        channels: table.channels.map(([first, second]) => [first, second] as const),
      };
}
