import { InvalidArgumentError, type FkTensor, type ObservableTensors } from '@partonfit/core';
import type { FkTable } from './fk-table.js';
import { observableNdata, type Observable } from './observable.js';

/**
 * The FK tensor a training step multiplies (core's `DisFkTensor` / `HadronicFkTensor`), float32:
 * DIS `(x · channel, data)` with `values[(a · nc + c) · ndata + n] = FK[n, c, a]`;
 * hadronic `(x1 · x2 · channel, data)` with
 * `values[((a · nx + b) · nc + c) · ndata + n] = FK[n, c, a, b]`.
 *
 * @param xOffset - position of the table's first x node in the PDF's x-grid (the concatenation
 *   of all tables' grids), so the step reads the table's nodes as a slice
 * @throws InvalidArgumentError - when `xOffset` is not a non-negative integer
 */
export function toFkTensor(fkTable: FkTable, xOffset: number): FkTensor {
  if (!Number.isInteger(xOffset) || xOffset < 0) {
    throw new InvalidArgumentError({
      argument: 'xOffset',
      problem: `expected a non-negative integer, got ${xOffset}`,
    });
  }
  const { name, ndata, values: compact } = fkTable;
  const nx = fkTable.xGrid.length;
  const nc = fkTable.channels.length;
  const xBlock = fkTable.hadronic ? nx * nx : nx;
  const values = new Float32Array(compact.length);
  // Compact index (n · nc + c) · xBlock + k goes to (k · nc + c) · ndata + n, where k is a
  // (DIS) or a · nx + b (hadronic).
  for (let n = 0; n < ndata; n++) {
    for (let c = 0; c < nc; c++) {
      const source = (n * nc + c) * xBlock;
      for (let k = 0; k < xBlock; k++) values[(k * nc + c) * ndata + n] = compact[source + k];
    }
  }
  const common = { name, ndata, nx, xOffset, values };
  return fkTable.hadronic
    ? { ...common, kind: 'hadronic', channels: fkTable.channels }
    : { ...common, kind: 'dis', channels: fkTable.channels };
}

/**
 * The step tensors of an observable: every table through {@link toFkTensor}, with its offset in
 * the PDF's x-grid from `xOffsetOf`.
 *
 * @param xOffsetOf - the x-grid offset of each table (e.g. from the union grid the PDF is
 *   evaluated on)
 */
export function toObservableTensors(
  observable: Observable,
  xOffsetOf: (fkTable: FkTable) => number,
): ObservableTensors {
  return {
    name: observable.name,
    ndata: observableNdata(observable),
    operation: observable.operation,
    operands: observable.operands.map((tables) =>
      tables.map((table) => toFkTensor(table, xOffsetOf(table))),
    ),
  };
}
