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
  /** A hadronic table of random values on `channels`. */
  const hadronicOf = (channels: readonly (readonly [number, number])[], seed: number) =>
    hadronicTable({
      ndata,
      xGrid,
      channels,
      values: randomValues(ndata * channels.length * nx * nx, seed),
    });
  const hadronic = hadronicOf(pairs, 2);

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

  it('should lay a hadronic table out as (x1 · x2 · channel, data), mirrored channels merged', () => {
    const tensor = toFkTensor(hadronic, 0);
    const kept = [
      [1, 2],
      [9, 9],
    ];
    expect(tensor).toMatchObject({ kind: 'hadronic', ndata, nx, xOffset: 0, channels: kept });
    expect(tensor.values).toHaveLength(nx * nx * kept.length * ndata);
    const compact = (n: number, c: number, a: number, b: number) =>
      hadronic.values[((n * pairs.length + c) * nx + a) * nx + b];
    for (let n = 0; n < ndata; n++) {
      for (let a = 0; a < nx; a++) {
        for (let b = 0; b < nx; b++) {
          const at = (k: number) => tensor.values[((a * nx + b) * kept.length + k) * ndata + n];
          // (1, 2) gains (2, 1) with x1 and x2 swapped, summed in float64, rounded once
          expect(at(0)).toBe(Math.fround(compact(n, 0, a, b) + compact(n, 1, b, a)));
          expect(at(1)).toBe(Math.fround(compact(n, 2, a, b)));
        }
      }
    }
  });

  it('should keep a hadronic table without mirrored pairs as it is', () => {
    const unpaired = [
      [1, 2],
      [3, 1],
    ] as const;
    const table = hadronicOf(unpaired, 4);
    const tensor = toFkTensor(table, 2);
    expect(tensor).toMatchObject({ xOffset: 2, channels: unpaired });
    for (let n = 0; n < ndata; n++) {
      for (let c = 0; c < unpaired.length; c++) {
        for (let k = 0; k < nx * nx; k++) {
          expect(tensor.values[(k * unpaired.length + c) * ndata + n]).toBe(
            Math.fround(table.values[(n * unpaired.length + c) * nx * nx + k]),
          );
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
    const merged = hadronicTensor.kind === 'hadronic' ? hadronicTensor.channels : [];
    expect(merged).toHaveLength(2);
    const hadronicRow = Array.from({ length: nx * nx * merged.length }, (_, k) => {
      const c = k % merged.length;
      const ab = Math.floor(k / merged.length);
      return xf[Math.floor(ab / nx) * 14 + merged[c][0]] * xf[(ab % nx) * 14 + merged[c][1]];
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
