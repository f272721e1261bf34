import { describe, expect, it } from 'vitest';
import { disTable } from './fk-table.fixture.js';
import { createObservable, observableNdata } from './observable.js';
import { predictObservable } from './predict.js';
import { collapseRepeatedDivisor } from './repeated-divisor.js';

const numerator = disTable({
  name: 'NUM',
  ndata: 3,
  xGrid: [0.1, 0.5],
  channels: [2],
  values: [1, 1, 2, 2, 3, 3],
});
const zeroFilled = disTable({
  name: 'DEN',
  ndata: 3,
  xGrid: [0.1, 0.5],
  channels: [2],
  values: [2, 2, 0, 0, 0, 0],
});

describe('collapseRepeatedDivisor', () => {
  it('should keep the first point of a zero-filled RATIO divisor, which then broadcasts', () => {
    const operands = collapseRepeatedDivisor('RATIO', [[numerator], [zeroFilled]]);
    expect(operands[1][0].ndata).toBe(1);
    expect(Array.from(operands[1][0].values)).toEqual([2, 2]);
    const observable = createObservable('R', 'RATIO', operands);
    expect(observableNdata(observable)).toBe(3);
    const gluonOne = (xGrid: Float64Array) =>
      Float64Array.from({ length: xGrid.length * 14 }, (_, i) => (i % 14 === 2 ? 1 : 0));
    expect(Array.from(predictObservable(observable, gluonOne))).toEqual([0.5, 1, 1.5]);
  });

  it('should leave other divisors and other operations alone', () => {
    const full = disTable({
      ...zeroFilled,
      ndata: 3,
      xGrid: [0.1, 0.5],
      channels: [2],
      values: [2, 2, 0, 0, 0, 1],
    });
    expect(collapseRepeatedDivisor('RATIO', [[numerator], [full]])[1][0]).toBe(full);
    expect(collapseRepeatedDivisor('ASY', [[numerator], [zeroFilled]])[1][0]).toBe(zeroFilled);
    expect(collapseRepeatedDivisor('RATIO', [[numerator], [zeroFilled, zeroFilled]])[1]).toEqual([
      zeroFilled,
      zeroFilled,
    ]);
  });
});
