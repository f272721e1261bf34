import {
  InputFileError,
  InvalidArgumentError,
  ShapeError,
  type ObservableOperation,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { disTable, hadronicTable, randomValues, randomXf } from './fk-table.fixture.js';
import type { DisFkTable } from './fk-table.js';
import { createObservable, observableNdata } from './observable.js';
import { combineOperands, predictFkTable, predictObservable } from './predict.js';

/** x·f with Σ = [10, 20] and g = [100, 200] on two x nodes, everything else zero. */
function sigmaAndGluon(): Float64Array {
  const xf = new Float64Array(2 * 14);
  xf.set([0, 10, 100], 0);
  xf.set([0, 20, 200], 14);
  return xf;
}

describe('predictFkTable', () => {
  it('should contract a tiny DIS table: T_n = Σ_{c,a} FK[n,c,a] · xf[a, channels[c]]', () => {
    const table = disTable({
      ndata: 2,
      xGrid: [0.1, 0.2],
      channels: [1, 2],
      // (n, c, a): n0 Σ [1, 2], n0 g [3, 4], n1 Σ [0.5, 0], n1 g [0, −1]
      values: [1, 2, 3, 4, 0.5, 0, 0, -1],
    });
    // n0: 1·10 + 2·20 + 3·100 + 4·200; n1: 0.5·10 − 1·200
    expect(Array.from(predictFkTable(table, sigmaAndGluon()))).toEqual([1150, -195]);
  });

  it('should contract a tiny hadronic table with the first index on the first PDF', () => {
    const table = hadronicTable({
      ndata: 1,
      xGrid: [0.1, 0.2],
      channels: [
        [1, 2],
        [2, 1],
      ],
      // (c, a, b): (Σ, g) [[1, 2], [3, 4]]; (g, Σ) [[0, 0], [0, 5]]
      values: [1, 2, 3, 4, 0, 0, 0, 5],
    });
    // (Σ,g): 1·10·100 + 2·10·200 + 3·20·100 + 4·20·200 = 27000; (g,Σ): 5·200·20 = 20000
    expect(Array.from(predictFkTable(table, sigmaAndGluon()))).toEqual([47000]);
  });

  it('should equal a padded 14 × 14 five-index contraction on a random hadronic table', () => {
    const nx = 4;
    const channels = [
      [1, 1],
      [1, 2],
      [2, 9],
      [9, 3],
    ] as const;
    const table = hadronicTable({
      ndata: 3,
      xGrid: [0.01, 0.1, 0.3, 0.7],
      channels,
      values: randomValues(3 * channels.length * nx * nx, 7),
    });
    const xf = randomXf(nx, 8);
    const padded = new Float64Array(3 * nx * 14 * nx * 14); // (n, a, i, b, j)
    channels.forEach(([i, j], c) => {
      for (let n = 0; n < 3; n++) {
        for (let a = 0; a < nx; a++) {
          for (let b = 0; b < nx; b++) {
            padded[(((n * nx + a) * 14 + i) * nx + b) * 14 + j] =
              table.values[((n * channels.length + c) * nx + a) * nx + b];
          }
        }
      }
    });
    const expected = [0, 1, 2].map((n) => {
      let sum = 0;
      for (let a = 0; a < nx; a++) {
        for (let i = 0; i < 14; i++) {
          for (let b = 0; b < nx; b++) {
            for (let j = 0; j < 14; j++) {
              sum +=
                padded[(((n * nx + a) * 14 + i) * nx + b) * 14 + j] *
                xf[a * 14 + i] *
                xf[b * 14 + j];
            }
          }
        }
      }
      return sum;
    });
    const predictions = predictFkTable(table, xf);
    expected.forEach((value, n) => {
      expect(predictions[n]).toBeCloseTo(value, 12);
    });
  });

  it('should reject x·f of the wrong shape', () => {
    const table = disTable({ ndata: 1, xGrid: [0.1, 0.2], channels: [1], values: [1, 1] });
    expect(() => predictFkTable(table, new Float64Array(14))).toThrow(ShapeError);
  });
});

/** A one-x-node gluon table whose predictions (with g = 1) are exactly `points`. */
function constantTable(points: readonly number[], name = 'T'): DisFkTable {
  return disTable({ name, ndata: points.length, xGrid: [0.5], channels: [2], values: points });
}

const GLUON_ONE = () => Float64Array.from({ length: 14 }, (_, f) => (f === 2 ? 1 : 0));

describe('predictObservable and combineOperands', () => {
  const a = constantTable([6, 2]);
  const b = constantTable([2, 4]);
  const cases: [ObservableOperation, DisFkTable[], number[]][] = [
    ['NULL', [a], [6, 2]],
    ['ADD', [a, b], [8, 6]],
    ['RATIO', [a, b], [3, 0.5]],
    ['ASY', [a, b], [0.5, -1 / 3]],
    ['SMN', [a, b, b, a], [1, 1]],
  ];

  it.each(cases)('should apply %s exactly', (operation, tables, expected) => {
    const observable = createObservable(
      'X',
      operation,
      tables.map((table) => [table]),
    );
    expect(Array.from(predictObservable(observable, GLUON_ONE))).toEqual(expected);
  });

  it('should sum ten operands for SMT and divide two sums of ten for COM', () => {
    const tables = Array.from({ length: 20 }, (_, k) => [constantTable([k + 1, 2 * (k + 1)])]);
    const smt = createObservable('X', 'SMT', tables.slice(0, 10));
    expect(Array.from(predictObservable(smt, GLUON_ONE))).toEqual([55, 110]);
    const com = createObservable('X', 'COM', tables);
    // (1 + … + 10) / (11 + … + 20) = 55 / 155 at both points
    expect(Array.from(predictObservable(com, GLUON_ONE))).toEqual([55 / 155, 55 / 155]);
  });

  it('should concatenate the tables of an operand along the data axis', () => {
    const observable = createObservable('X', 'ADD', [
      [constantTable([1]), constantTable([2, 3])],
      [constantTable([10, 20, 30])],
    ]);
    expect(observableNdata(observable)).toBe(3);
    expect(Array.from(predictObservable(observable, GLUON_ONE))).toEqual([11, 22, 33]);
  });

  it('should broadcast a one-point operand (a normalising total cross section)', () => {
    const observable = createObservable('X', 'RATIO', [
      [constantTable([6, 3, 9])],
      [constantTable([3])],
    ]);
    expect(Array.from(predictObservable(observable, GLUON_ONE))).toEqual([2, 1, 3]);
  });

  it('should evaluate the PDF once per distinct x-grid', () => {
    const shared = constantTable([1]);
    const observable = createObservable('X', 'ADD', [[shared], [shared]]);
    let calls = 0;
    predictObservable(observable, (xGrid) => {
      calls += 1;
      return GLUON_ONE().subarray(0, xGrid.length * 14);
    });
    expect(calls).toBe(1);
  });

  it('should reject operand counts that do not fit the operation', () => {
    expect(() => createObservable('X', 'RATIO', [[a]])).toThrow(
      /operands of X: operation RATIO takes 2 operands, got 1/,
    );
    expect(() => createObservable('X', 'COM', [[a], [b]])).toThrow(InvalidArgumentError);
    expect(() => createObservable('X', 'NULL', [[]])).toThrow(/operand 0 has no FK table/);
    expect(() => createObservable('X', 'ADD', [[a], [constantTable([1, 2, 3])]])).toThrow(
      /operands have 2, 3 data points: each must have 3 or 1/,
    );
  });

  it('should refuse a table whose predictions overflow, naming its file', () => {
    const huge = disTable({
      name: 'HUGE',
      ndata: 2,
      xGrid: [0.1],
      channels: [2],
      values: [1, 3e38],
    });
    const observable = createObservable('X', 'NULL', [[huge]]);
    const xf = () => Float64Array.from({ length: 14 }, (_, f) => (f === 2 ? 1e300 : 0));
    let error: unknown;
    try {
      predictObservable(observable, xf);
    } catch (caught) {
      error = caught;
    }
    expect(InputFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ file: 'HUGE.dat', key: 'FastKernel' });
    expect((error as Error).message).toMatch(/the prediction of data point 1 is Infinity/);
  });

  it('should refuse a combination that is not finite, naming the observable', () => {
    const zero = constantTable([0, 1]);
    const observable = createObservable('RATIO_SET', 'RATIO', [[constantTable([1, 1])], [zero]]);
    expect(() => predictObservable(observable, GLUON_ONE)).toThrow(
      'RATIO_SET: the prediction of data point 0 is Infinity (operation RATIO',
    );
  });

  it('should reject operand arrays of the wrong length', () => {
    expect(() => combineOperands('ADD', [new Float64Array(2), new Float64Array(3)], 2)).toThrow(
      ShapeError,
    );
  });
});
