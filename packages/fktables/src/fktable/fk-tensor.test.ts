import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { disTable, hadronicTable, randomValues, randomXf } from './fk-table.fixture.js';
import { toFkTensor, toObservableTensors } from './fk-tensor.js';
import { createObservable } from './observable.js';
import { predictFkTable } from './predict.js';

const ndata = 3;
const nx = 4;
const xGrid = [0.01, 0.1, 0.3, 0.7];

describe('toFkTensor', () => {
  const channels = [1, 2, 9];
  const dis = disTable({
    ndata,
    xGrid,
    channels,
    values: randomValues(ndata * channels.length * nx, 1),
  });
  const pairs = [
    [1, 2],
    [2, 1],
    [9, 9],
  ] as const;
  const hadronic = hadronicTable({
    ndata,
    xGrid,
    channels: pairs,
    values: randomValues(ndata * pairs.length * nx * nx, 2),
  });

  it('should lay a DIS table out as (x · channel, data), element by element', () => {
    const tensor = toFkTensor(dis, 5);
    expect(tensor).toMatchObject({ kind: 'dis', name: 'DIS', ndata, nx, xOffset: 5, channels });
    expect(tensor.values).toBeInstanceOf(Float32Array);
    expect(tensor.values).toHaveLength(nx * channels.length * ndata);
    for (let n = 0; n < ndata; n++) {
      for (let c = 0; c < channels.length; c++) {
        for (let a = 0; a < nx; a++) {
          expect(tensor.values[(a * channels.length + c) * ndata + n]).toBe(
            Math.fround(dis.values[(n * channels.length + c) * nx + a]),
          );
        }
      }
    }
  });

  it('should lay a hadronic table out as (x1 · x2 · channel, data), element by element', () => {
    const tensor = toFkTensor(hadronic, 0);
    expect(tensor).toMatchObject({ kind: 'hadronic', ndata, nx, xOffset: 0, channels: pairs });
    for (let n = 0; n < ndata; n++) {
      for (let c = 0; c < pairs.length; c++) {
        for (let a = 0; a < nx; a++) {
          for (let b = 0; b < nx; b++) {
            expect(tensor.values[((a * nx + b) * pairs.length + c) * ndata + n]).toBe(
              Math.fround(hadronic.values[((n * pairs.length + c) * nx + a) * nx + b]),
            );
          }
        }
      }
    }
  });

  it('should give the float64 predictions as one (1, x · channel) @ (x · channel, data) product', () => {
    const xf = randomXf(nx, 3);
    const disTensor = toFkTensor(dis, 0);
    const disRow = Array.from({ length: nx * channels.length }, (_, k) => {
      const a = Math.floor(k / channels.length);
      return xf[a * 14 + channels[k % channels.length]];
    });
    const hadronicTensor = toFkTensor(hadronic, 0);
    const hadronicRow = Array.from({ length: nx * nx * pairs.length }, (_, k) => {
      const c = k % pairs.length;
      const ab = Math.floor(k / pairs.length);
      return xf[Math.floor(ab / nx) * 14 + pairs[c][0]] * xf[(ab % nx) * 14 + pairs[c][1]];
    });
    const product = (row: number[], values: Float32Array) =>
      Array.from({ length: ndata }, (_, n) =>
        row.reduce((sum, v, k) => sum + v * values[k * ndata + n], 0),
      );
    const cases = [
      [product(disRow, disTensor.values), predictFkTable(dis, xf)],
      [product(hadronicRow, hadronicTensor.values), predictFkTable(hadronic, xf)],
    ] as const;
    for (const [fromTensor, reference] of cases) {
      fromTensor.forEach((value, n) => {
        expect(value).toBeCloseTo(reference[n], 5);
      });
    }
  });

  it('should reject a negative or fractional x offset', () => {
    expect(() => toFkTensor(dis, -1)).toThrow(InvalidArgumentError);
    expect(() => toFkTensor(dis, 1.5)).toThrow(/xOffset: expected a non-negative integer/);
  });
});

describe('toObservableTensors', () => {
  it('should convert every table of every operand with its own x offset', () => {
    const numerator = disTable({
      name: 'NUM',
      ndata: 2,
      xGrid: [0.1],
      channels: [2],
      values: [1, 2],
    });
    const denominator = disTable({
      name: 'DEN',
      ndata: 1,
      xGrid: [0.2, 0.3],
      channels: [1],
      values: [3, 4],
    });
    const tensors = toObservableTensors(
      createObservable('SET', 'RATIO', [[numerator], [denominator]]),
      (table) => (table === numerator ? 0 : 1),
    );
    expect(tensors).toMatchObject({ name: 'SET', ndata: 2, operation: 'RATIO' });
    expect(
      tensors.operands.map((operand) => operand.map((t) => [t.name, t.xOffset, t.nx])),
    ).toEqual([[['NUM', 0, 1]], [['DEN', 1, 2]]]);
    expect(Array.from(tensors.operands[1][0].values)).toEqual([3, 4]);
  });
});
