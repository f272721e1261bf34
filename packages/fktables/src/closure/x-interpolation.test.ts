import { FLAVOUR_BASIS, InvalidArgumentError, type LhaFlavour } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { toyPdfFlavourXf } from './toy-pdf.js';
import {
  INTERPOLATION_DEGREE,
  interpolationVariable,
  interpolationWeights,
  interpolationXGrid,
} from './x-interpolation.js';

const GRID = interpolationXGrid({ xMin: 1e-5, xMax: 0.9, nodes: 50 });

/** Σ_a I_a(x) · values[a] at one point. */
function interpolate(x: number, values: (a: number) => number): number {
  const { start, weights } = interpolationWeights(GRID, x);
  return weights.reduce((sum, weight, k) => sum + weight * values(start + k), 0);
}

/** 600 points over [10⁻⁴, 0.8]: 400 logarithmic below 0.1, 200 linear above. */
const DATA_REGION = Float64Array.from({ length: 600 }, (_, i) =>
  i < 400 ? 1e-4 * 1000 ** (i / 399) : 0.1 + (0.7 * (i - 400)) / 199,
);

describe('interpolationXGrid', () => {
  it('should space the nodes equally in y = ln x − 5 ln(1 − x), ends included exactly', () => {
    expect(GRID).toHaveLength(50);
    expect(GRID[0]).toBe(1e-5);
    expect(GRID[49]).toBe(0.9);
    const y = Array.from(GRID, interpolationVariable);
    const step = (y[49] - y[0]) / 49;
    y.slice(1).forEach((value, a) => {
      expect(value - y[a]).toBeCloseTo(step, 12);
    });
    expect(interpolationVariable(0.5)).toBeCloseTo(Math.log(0.5) - 5 * Math.log(0.5), 15);
  });

  it('should reject bad ranges and too few nodes', () => {
    expect(() => interpolationXGrid({ xMin: 0, xMax: 0.9, nodes: 50 })).toThrow(
      InvalidArgumentError,
    );
    expect(() => interpolationXGrid({ xMin: 0.5, xMax: 0.1, nodes: 50 })).toThrow(
      'xMin, xMax: expected 0 < xMin < xMax < 1, got 0.5, 0.1',
    );
    expect(() => interpolationXGrid({ xMin: 1e-5, xMax: 1, nodes: 50 })).toThrow(
      InvalidArgumentError,
    );
    expect(() => interpolationXGrid({ xMin: 1e-5, xMax: 0.9, nodes: 5 })).toThrow(
      'nodes: expected an integer of at least 6, got 5',
    );
  });
});

describe('interpolationWeights', () => {
  it('should pick the node itself at a node', () => {
    for (const a of [0, 1, 20, 48, 49]) {
      const { start, weights } = interpolationWeights(GRID, GRID[a]);
      weights.forEach((weight, k) => {
        expect(Math.abs(weight)).toBe(start + k === a ? 1 : 0);
      });
    }
  });

  it('should read the degree + 1 nodes around x, shifted inwards at the ends', () => {
    const inside = interpolationWeights(GRID, 0.5 * (GRID[20] + GRID[21]));
    expect(inside.start).toBe(18);
    expect(inside.weights).toHaveLength(INTERPOLATION_DEGREE + 1);
    expect(interpolationWeights(GRID, 1.2e-5).start).toBe(0);
    expect(interpolationWeights(GRID, 0.89).start).toBe(50 - INTERPOLATION_DEGREE - 1);
  });

  it('should reproduce every polynomial of degree 5 in y, and not one of degree 6', () => {
    const y = Array.from(GRID, interpolationVariable);
    const quintic = (t: number) => 0.3 - 0.7 * t + 0.05 * t ** 3 + 0.002 * t ** 5;
    const sextic = (t: number) => quintic(t) + 0.01 * t ** 6;
    for (const x of [3e-5, 2e-3, 0.07, 0.33, 0.77]) {
      const t = interpolationVariable(x);
      expect(interpolate(x, (a) => quintic(y[a]))).toBeCloseTo(quintic(t), 9);
      expect(Math.abs(interpolate(x, (a) => sextic(y[a])) - sextic(t))).toBeGreaterThan(1e-6);
    }
  });

  it('should interpolate the toy PDF over [1e-4, 0.8] to the accuracy the module states', () => {
    const atNodes = toyPdfFlavourXf(GRID);
    const exact = toyPdfFlavourXf(DATA_REGION);
    const column = (name: LhaFlavour) => FLAVOUR_BASIS.findIndex((member) => member.name === name);
    const worst = (values: (a: number) => number, exactAt: (n: number) => number) =>
      DATA_REGION.reduce(
        (max, x, n) => Math.max(max, Math.abs(interpolate(x, values) / exactAt(n) - 1)),
        0,
      );
    const flavourError = (name: LhaFlavour) =>
      worst(
        (a) => atNodes[a * 14 + column(name)],
        (n) => exact[n * 14 + column(name)],
      );
    const valence = (name: 'U' | 'D', sea: 'UBAR' | 'DBAR') =>
      worst(
        (a) => atNodes[a * 14 + column(name)] - atNodes[a * 14 + column(sea)],
        (n) => exact[n * 14 + column(name)] - exact[n * 14 + column(sea)],
      );
    expect(valence('U', 'UBAR')).toBeLessThan(3.5e-5);
    expect(valence('D', 'DBAR')).toBeLessThan(4e-5);
    expect(flavourError('GLUON')).toBeLessThan(3.5e-5);
    expect(flavourError('DBAR')).toBeLessThan(1e-4);
    expect(flavourError('SBAR')).toBeLessThan(1.3e-4);
    expect(flavourError('UBAR')).toBeLessThan(2.6e-4);
  });

  it('should reject a point outside the grid and a grid that is short, unordered or outside (0, 1)', () => {
    expect(() => interpolationWeights(GRID, 0.95)).toThrow(
      'x: 0.95 is outside the x-grid [0.00001, 0.9]',
    );
    expect(() => interpolationWeights(GRID, Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => interpolationWeights(GRID.subarray(0, 5), 1e-5)).toThrow(
      'xGrid: has 5 nodes, interpolation of degree 5 needs at least 6',
    );
    const unordered = GRID.slice();
    unordered[10] = unordered[12];
    expect(() => interpolationWeights(unordered, 0.5)).toThrow(
      `xGrid: node 11 (x = ${GRID[11]}) is not in (0, 1) or not above the node before`,
    );
    const reaching = GRID.slice();
    reaching[49] = 1;
    expect(() => interpolationWeights(reaching, 0.5)).toThrow(InvalidArgumentError);
  });
});
