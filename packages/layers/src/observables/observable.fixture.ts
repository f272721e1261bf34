import type {
  DisFkTensor,
  FkTensor,
  HadronicFkTensor,
  ObservableOperation,
  ObservableTensors,
} from '@partonfit/core';
import { randomArray, toFloat32 } from '../ops/numeric.fixture.js';

const FLAVOURS = 14;

/** Sizes of a random table. */
export interface TableSpec {
  readonly name: string;
  readonly ndata: number;
  readonly nx: number;
  readonly xOffset: number;
  readonly seed: number;
  /** Draw values in [0, 1) instead of [−1, 1) (for denominators of RATIO, ASY, …). */
  readonly positive?: boolean;
}

/** A DIS table with random values. */
export function randomDisTable(spec: TableSpec, channels: readonly number[]): DisFkTensor {
  const size = spec.nx * channels.length * spec.ndata;
  return {
    kind: 'dis',
    name: spec.name,
    ndata: spec.ndata,
    nx: spec.nx,
    xOffset: spec.xOffset,
    channels,
    values: toFloat32(randomArray(size, spec.seed, spec.positive === true ? 0 : -1, 1)),
  };
}

/** A hadronic table with random values. */
export function randomHadronicTable(
  spec: TableSpec,
  channels: readonly (readonly [number, number])[],
): HadronicFkTensor {
  const size = spec.nx * spec.nx * channels.length * spec.ndata;
  return {
    kind: 'hadronic',
    name: spec.name,
    ndata: spec.ndata,
    nx: spec.nx,
    xOffset: spec.xOffset,
    channels,
    values: toFloat32(randomArray(size, spec.seed, spec.positive === true ? 0 : -1, 1)),
  };
}

/** A PDF `(replicas, x, 14)` on `xPoints` nodes, float64 values that are exact float32. */
export function randomPdf(replicas: number, xPoints: number, seed: number, positive = false) {
  return Float64Array.from(
    toFloat32(randomArray(replicas * xPoints * FLAVOURS, seed, positive ? 0.1 : -1, 1)),
  );
}

/**
 * The float64 loop implementation of one table: T[r, n] = Σ FK · xf (· xf), and its gradient
 * with respect to the PDF for the upstream weights `upstream (replicas, data)`.
 */
function tableReference(table: FkTensor, pdf: Float64Array, replicas: number, xPoints: number) {
  const { ndata, nx, xOffset, values } = table;
  const channels = table.channels.length;
  const at = (r: number, a: number, flavour: number) =>
    (r * xPoints + xOffset + a) * FLAVOURS + flavour;
  const forEachTerm = (
    visit: (r: number, n: number, fk: number, pdfIndices: readonly number[]) => void,
  ) => {
    for (let r = 0; r < replicas; r++) {
      for (let a = 0; a < nx; a++) {
        if (table.kind === 'dis') {
          table.channels.forEach((flavour, c) => {
            for (let n = 0; n < ndata; n++) {
              visit(r, n, values[(a * channels + c) * ndata + n], [at(r, a, flavour)]);
            }
          });
          continue;
        }
        for (let b = 0; b < nx; b++) {
          table.channels.forEach(([first, second], c) => {
            for (let n = 0; n < ndata; n++) {
              visit(r, n, values[((a * nx + b) * channels + c) * ndata + n], [
                at(r, a, first),
                at(r, b, second),
              ]);
            }
          });
        }
      }
    }
  };
  const output = new Float64Array(replicas * ndata);
  forEachTerm((r, n, fk, indices) => {
    output[r * ndata + n] += indices.reduce((product, index) => product * pdf[index], fk);
  });
  const gradient = (upstream: Float64Array, into: Float64Array) => {
    forEachTerm((r, n, fk, indices) => {
      const weight = upstream[r * ndata + n] * fk;
      if (indices.length === 1) into[indices[0]] += weight;
      else {
        into[indices[0]] += weight * pdf[indices[1]];
        into[indices[1]] += weight * pdf[indices[0]];
      }
    });
  };
  return { output, gradient };
}

/** Numerator and denominator coefficients of each operand: O = N / D. */
function operationCoefficients(operation: ObservableOperation, operands: number) {
  const numerator = new Array<number>(operands).fill(0);
  const denominator = new Array<number>(operands).fill(0);
  const set = (target: number[], from: number, to: number, value: number) => {
    for (let k = from; k < to; k++) target[k] = value;
  };
  switch (operation) {
    case 'NULL':
    case 'ADD':
    case 'SMT':
      set(numerator, 0, operands, 1);
      break;
    case 'RATIO':
      numerator[0] = 1;
      denominator[1] = 1;
      break;
    case 'ASY':
      numerator[0] = 1;
      numerator[1] = -1;
      set(denominator, 0, 2, 1);
      break;
    case 'SMN':
      set(numerator, 0, 2, 1);
      set(denominator, 2, 4, 1);
      break;
    case 'COM':
      set(numerator, 0, 10, 1);
      set(denominator, 10, 20, 1);
      break;
  }
  return { numerator, denominator, hasDenominator: denominator.some((value) => value !== 0) };
}

/**
 * The float64 loop implementation of an observable on a PDF `(replicas, x, 14)`: the output
 * `(replicas, data)` and the gradient of Σ upstream ⊙ output with respect to the PDF.
 */
export function observableReference(
  observable: ObservableTensors,
  pdf: Float64Array,
  replicas: number,
  xPoints: number,
) {
  const ndata = observable.ndata;
  const operands = observable.operands.map((tables) => {
    const references = tables.map((table) => tableReference(table, pdf, replicas, xPoints));
    const points = tables.reduce((total, table) => total + table.ndata, 0);
    const values = new Float64Array(replicas * points);
    let offset = 0;
    tables.forEach((table, t) => {
      for (let r = 0; r < replicas; r++) {
        for (let n = 0; n < table.ndata; n++) {
          values[r * points + offset + n] = references[t].output[r * table.ndata + n];
        }
      }
      offset += table.ndata;
    });
    return { tables, references, points, values };
  });
  const { numerator, denominator, hasDenominator } = operationCoefficients(
    observable.operation,
    operands.length,
  );
  const operandValue = (k: number, r: number, n: number) => {
    const operand = operands[k];
    return operand.values[r * operand.points + (operand.points === 1 ? 0 : n)];
  };
  const combine = (coefficients: number[], r: number, n: number) =>
    coefficients.reduce((sum, coefficient, k) => sum + coefficient * operandValue(k, r, n), 0);
  const output = new Float64Array(replicas * ndata);
  for (let r = 0; r < replicas; r++) {
    for (let n = 0; n < ndata; n++) {
      const top = combine(numerator, r, n);
      output[r * ndata + n] = hasDenominator ? top / combine(denominator, r, n) : top;
    }
  }
  const gradient = (upstream: Float64Array): Float64Array => {
    const into = new Float64Array(replicas * xPoints * FLAVOURS);
    operands.forEach((operand, k) => {
      const operandUpstream = new Float64Array(replicas * operand.points);
      for (let r = 0; r < replicas; r++) {
        for (let n = 0; n < ndata; n++) {
          const top = combine(numerator, r, n);
          const bottom = hasDenominator ? combine(denominator, r, n) : 1;
          const partial = numerator[k] / bottom - (top * denominator[k]) / (bottom * bottom);
          const index = r * operand.points + (operand.points === 1 ? 0 : n);
          operandUpstream[index] += upstream[r * ndata + n] * partial;
        }
      }
      let offset = 0;
      operand.tables.forEach((table, t) => {
        const tableUpstream = new Float64Array(replicas * table.ndata);
        for (let r = 0; r < replicas; r++) {
          for (let n = 0; n < table.ndata; n++) {
            tableUpstream[r * table.ndata + n] = operandUpstream[r * operand.points + offset + n];
          }
        }
        operand.references[t].gradient(tableUpstream, into);
        offset += table.ndata;
      });
    });
    return into;
  };
  return { output, gradient };
}
