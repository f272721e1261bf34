import { InvalidArgumentError } from '@partonfit/core';
import { valuesPerDataPoint, type FkTable } from '../fktable/fk-table.js';
import { observableNdata, operandNdata, type Observable } from '../fktable/observable.js';

/** The rows `kept` (local data indices, ascending) of one table. */
function selectRows(table: FkTable, kept: readonly number[]): FkTable {
  const width = valuesPerDataPoint(table);
  const values = new Float64Array(kept.length * width);
  kept.forEach((n, row) => {
    values.set(table.values.subarray(n * width, (n + 1) * width), row * width);
  });
  return { ...table, ndata: kept.length, values };
}

/** An operand restricted to the observable's points `kept`; a 1-point operand broadcasts. */
function cutOperand(operand: readonly FkTable[], kept: readonly number[]): FkTable[] {
  if (operandNdata(operand) === 1) return [...operand];
  let first = 0;
  return operand.map((table) => {
    const local = kept.filter((n) => n >= first && n < first + table.ndata).map((n) => n - first);
    first += table.ndata;
    return selectRows(table, local);
  });
}

/**
 * An observable restricted to the data points that survive the kinematic cuts: every operand
 * keeps the same points (a one-point operand, such as a total cross section normalising a
 * distribution, is kept whole, as upstream protects it from cuts).
 *
 * @param observable - the observable of a dataset
 * @param mask - (data), 1 = the point is kept
 * @throws InvalidArgumentError - if the mask's length is not the observable's number of points
 */
export function cutObservable(observable: Observable, mask: Uint8Array): Observable {
  const ndata = observableNdata(observable);
  if (mask.length !== ndata) {
    throw new InvalidArgumentError({
      argument: 'mask',
      problem: `${observable.name} has ${ndata} data points, the cut mask ${mask.length}`,
    });
  }
  const kept: number[] = [];
  mask.forEach((keep, n) => {
    if (keep === 1) kept.push(n);
  });
  if (kept.length === ndata) return observable;
  return {
    ...observable,
    operands: observable.operands.map((operand) => cutOperand(operand, kept)),
  };
}
