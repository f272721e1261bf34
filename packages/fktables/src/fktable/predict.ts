import {
  EVOLUTION_BASIS_SIZE,
  InputFileError,
  PartonfitError,
  ShapeError,
  type ObservableOperation,
} from '@partonfit/core';
import type { FkTable } from './fk-table.js';
import { observableNdata, operandNdata, type Observable } from './observable.js';

/**
 * Float64 reference predictions: plain loops over the compact tables, for tests, for
 * `partonfit predict`, and as the standard the float32 training step is checked against.
 *
 * @packageDocumentation
 */

/**
 * x·f of a PDF at the nodes of an x-grid in the 14-flavour evolution basis, shape
 * `(x, flavour)` row-major (`xf[a · 14 + f]`), at the tables' Q0.
 */
export type PdfAtXGrid = (xGrid: Float64Array) => Float64Array;

/**
 * The predictions of one FK table:
 * DIS T_n = Σ_{c,a} FK[n, c, a] · xf[a, channels[c]];
 * hadronic T_n = Σ_{c,a,b} FK[n, c, a, b] · xf[a, i_c] · xf[b, j_c].
 *
 * @param xf - x·f at `fkTable.xGrid` in the evolution basis, shape `(x, 14)` row-major
 * @returns the predictions, shape `(data)`
 * @throws ShapeError - when `xf` is not `(x, 14)` for the table's x-grid
 */
export function predictFkTable(fkTable: FkTable, xf: Float64Array): Float64Array {
  const nx = fkTable.xGrid.length;
  if (xf.length !== nx * EVOLUTION_BASIS_SIZE) {
    throw new ShapeError({
      quantity: `x·f for FK table ${fkTable.name}`,
      expected: [nx * EVOLUTION_BASIS_SIZE],
      actual: [xf.length],
      axes: '(x · flavour)',
    });
  }
  const { ndata, values } = fkTable;
  const predictions = new Float64Array(ndata);
  if (!fkTable.hadronic) {
    const channels = fkTable.channels;
    for (let n = 0; n < ndata; n++) {
      let sum = 0;
      for (let c = 0; c < channels.length; c++) {
        const base = (n * channels.length + c) * nx;
        const flavour = channels[c];
        for (let a = 0; a < nx; a++)
          sum += values[base + a] * xf[a * EVOLUTION_BASIS_SIZE + flavour];
      }
      predictions[n] = sum;
    }
    return predictions;
  }
  const channels = fkTable.channels;
  for (let n = 0; n < ndata; n++) {
    let sum = 0;
    for (let c = 0; c < channels.length; c++) {
      const [first, second] = channels[c];
      const base = (n * channels.length + c) * nx * nx;
      for (let a = 0; a < nx; a++) {
        let inner = 0;
        const row = base + a * nx;
        for (let b = 0; b < nx; b++)
          inner += values[row + b] * xf[b * EVOLUTION_BASIS_SIZE + second];
        sum += xf[a * EVOLUTION_BASIS_SIZE + first] * inner;
      }
    }
    predictions[n] = sum;
  }
  return predictions;
}

/**
 * Combines operand predictions point by point with `operation` (see {@link Observable}); an
 * operand of length 1 is broadcast.
 *
 * @param operands - one prediction array per operand, each of length `ndata` or 1
 * @returns shape `(data)`
 * @throws ShapeError - when an operand has neither `ndata` points nor 1
 */
export function combineOperands(
  operation: ObservableOperation,
  operands: readonly Float64Array[],
  ndata: number,
): Float64Array {
  operands.forEach((operand, k) => {
    if (operand.length !== ndata && operand.length !== 1) {
      throw new ShapeError({
        quantity: `operand ${k}`,
        expected: [ndata],
        actual: [operand.length],
      });
    }
  });
  const at = (k: number, n: number) => {
    const operand = operands[k];
    return operand.length === 1 ? operand[0] : operand[n];
  };
  const sum = (from: number, to: number, n: number) => {
    let total = 0;
    for (let k = from; k < to; k++) total += at(k, n);
    return total;
  };
  const result = new Float64Array(ndata);
  for (let n = 0; n < ndata; n++) {
    switch (operation) {
      case 'NULL':
        result[n] = at(0, n);
        break;
      case 'ADD':
        result[n] = at(0, n) + at(1, n);
        break;
      case 'RATIO':
        result[n] = at(0, n) / at(1, n);
        break;
      case 'ASY':
        result[n] = (at(0, n) - at(1, n)) / (at(0, n) + at(1, n));
        break;
      case 'SMN':
        result[n] = (at(0, n) + at(1, n)) / (at(2, n) + at(3, n));
        break;
      case 'COM':
        result[n] = sum(0, 10, n) / sum(10, 20, n);
        break;
      case 'SMT':
        result[n] = sum(0, 10, n);
        break;
    }
  }
  return result;
}

/**
 * The predictions of an observable: each table convolved with the PDF (evaluated once per
 * distinct x-grid object), tables concatenated within each operand, operands combined.
 *
 * @param pdf - x·f in the evolution basis at a given x-grid, shape `(x, 14)`
 * @returns shape `(data)`
 * @throws ShapeError - when `pdf` returns an array of the wrong length; InputFileError naming
 *   a table whose predictions are not finite (values too large); PartonfitError naming the
 *   observable when combining its operands gives a non-finite value (e.g. a RATIO over zero)
 */
export function predictObservable(observable: Observable, pdf: PdfAtXGrid): Float64Array {
  const xfByGrid = new Map<Float64Array, Float64Array>();
  const operands = observable.operands.map((tables) => {
    const operand = new Float64Array(operandNdata(tables));
    let offset = 0;
    for (const table of tables) {
      let xf = xfByGrid.get(table.xGrid);
      if (xf === undefined) {
        xf = pdf(table.xGrid);
        xfByGrid.set(table.xGrid, xf);
      }
      const predictions = predictFkTable(table, xf);
      const overflow = predictions.findIndex((value) => !Number.isFinite(value));
      if (overflow !== -1) {
        throw new InputFileError({
          file: table.file,
          key: 'FastKernel',
          problem: `the prediction of data point ${overflow} is ${predictions[overflow]}: the table's values overflow a float64 sum`,
        });
      }
      operand.set(predictions, offset);
      offset += table.ndata;
    }
    return operand;
  });
  const predictions = combineOperands(observable.operation, operands, observableNdata(observable));
  const undefinedPoint = predictions.findIndex((value) => !Number.isFinite(value));
  if (undefinedPoint !== -1) {
    throw new PartonfitError({
      message: `${observable.name}: the prediction of data point ${undefinedPoint} is ${predictions[undefinedPoint]} (operation ${observable.operation} of its tables' predictions)`,
    });
  }
  return predictions;
}
