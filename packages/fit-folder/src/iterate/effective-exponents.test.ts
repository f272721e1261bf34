import {
  EVOLUTION_TO_FLAVOUR,
  FIT_BASES,
  InvalidArgumentError,
  ShapeError,
  fitBasisToEvolution,
  rotateFlavours,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { EXPORT_X_GRID } from '../folder/export-x-grid.js';
import {
  alphaEffective,
  betaEffective,
  effectiveExponentGrid,
  exponentBand,
  exponentBands,
} from './effective-exponents.js';

/** x·f = A·x^(1−a)·(1−x)^b: f ∝ x^(−a) at small x and (1 − x)^b at large x. */
const shape = (x: number, a: number, b: number, norm = 1) => norm * x ** (1 - a) * (1 - x) ** b;

/**
 * Replicas in the flavour basis on n3fit's export grid whose EVOL-basis flavours are
 * `shape(x, a, b, norm)` with each replica's own (a, b) per flavour.
 */
function evolReplicas(exponents: readonly (readonly (readonly [number, number])[])[], norm = 1) {
  const basis = FIT_BASES.EVOL;
  const toEvolution = fitBasisToEvolution(basis);
  const replicas = exponents.map((flavours) => {
    const fitted = new Float64Array(EXPORT_X_GRID.length * flavours.length);
    EXPORT_X_GRID.forEach((x, ix) => {
      flavours.forEach(([a, b], f) => {
        fitted[ix * flavours.length + f] = shape(x, a, b, norm);
      });
    });
    return rotateFlavours(EVOLUTION_TO_FLAVOUR, rotateFlavours(toEvolution, fitted));
  });
  const xf = new Float64Array(replicas.length * replicas[0].length);
  replicas.forEach((values, r) => {
    xf.set(values, r * values.length);
  });
  return { xGrid: EXPORT_X_GRID, xf, replicas: replicas.length };
}

describe('alphaEffective and betaEffective', () => {
  it('should give the exponents a and b of f = x^(−a)·(1 − x)^b where the other factor is 1', () => {
    for (const a of [-0.3, 0.2, 1.1]) {
      for (const x of [1e-9, 1e-6, 1e-3, 0.3]) {
        expect(alphaEffective(x, shape(x, a, 0))).toBeCloseTo(a, 13);
      }
    }
    for (const b of [0.5, 3, 7.25]) {
      for (const x of [0.1, 0.65, 0.95]) {
        expect(betaEffective(x, shape(x, 0, b))).toBeCloseTo(b, 12);
      }
    }
  });

  it('should carry the other factor and the normalisation as upstream does: effective, not fitted, exponents', () => {
    const [a, b, norm] = [1.1, 3.5, 2.7];
    // α_eff = a − (b·ln(1 − x) + ln A)/ln x, β_eff = b + (ln A − a·ln x)/ln(1 − x)
    for (const x of [1e-6, 1e-3]) {
      expect(alphaEffective(x, shape(x, a, b, norm))).toBeCloseTo(
        a - (b * Math.log(1 - x) + Math.log(norm)) / Math.log(x),
        12,
      );
    }
    for (const x of [0.65, 0.95]) {
      expect(betaEffective(x, shape(x, a, b, norm))).toBeCloseTo(
        b + (Math.log(norm) - a * Math.log(x)) / Math.log(1 - x),
        12,
      );
    }
    // the analytic PDF's own exponents, within what the other factor leaves at the edges
    expect(Math.abs(alphaEffective(1e-9, shape(1e-9, a, b)) - a)).toBeLessThan(1e-9);
    expect(Math.abs(betaEffective(0.9999, shape(0.9999, a, b)) - b)).toBeLessThan(2e-5);
  });

  it('should give NaN where the flavour is 0, and use |f| where it is negative', () => {
    expect(alphaEffective(1e-3, 0)).toBeNaN();
    expect(betaEffective(0.9, 0)).toBeNaN();
    expect(alphaEffective(1e-3, -shape(1e-3, 0.4, 0))).toBeCloseTo(0.4, 13);
  });
});

describe('effectiveExponentGrid', () => {
  it('should read a and b of each EVOL flavour of an analytic PDF from the interpolated exportgrid', () => {
    const exponents = [
      [1.1, 2.8],
      [1.05, 4.6],
      [0.5, 3.1],
      [0.45, 3.3],
      [0.4, 2.9],
      [0.35, 3.2],
      [1.0, 2.7],
      [1.02, 3.4],
    ] as const;
    const pdf = evolReplicas([exponents]);
    const flavours = FIT_BASES.EVOL.flavours;
    const alpha = effectiveExponentGrid(pdf, FIT_BASES.EVOL, flavours, 'alpha', [1e-6, 1e-3]);
    const beta = effectiveExponentGrid(pdf, FIT_BASES.EVOL, flavours, 'beta', [0.65, 0.95]);
    exponents.forEach(([a, b], f) => {
      // LHAPDF's interpolation from the 196 knots (as upstream reads the evolved set) costs < 5·10⁻⁵
      // at small x, where the knots are log-spaced, and < 5·10⁻⁴ at large x, where they are linear
      expect(alpha.values[f]).toBeCloseTo(alphaEffective(1e-6, shape(1e-6, a, b)), 4);
      expect(alpha.values[flavours.length + f]).toBeCloseTo(
        alphaEffective(1e-3, shape(1e-3, a, b)),
        4,
      );
      expect(beta.values[f]).toBeCloseTo(betaEffective(0.65, shape(0.65, a, b)), 3);
      expect(beta.values[flavours.length + f]).toBeCloseTo(
        betaEffective(0.95, shape(0.95, a, b)),
        3,
      );
      expect(Math.abs(alpha.values[f] - a)).toBeLessThan(5e-5);
    });
  });

  it('should follow the runcard order of the flavours and keep replicas apart', () => {
    const first = [1.1, 1.05, 0.5, 0.45, 0.4, 0.35, 1.0, 1.02].map((a) => [a, 3] as const);
    const second = first.map(([a, b]) => [a + 0.1, b] as const);
    const pdf = evolReplicas([first, second]);
    const order = ['t15', 'g', 'sng', 'v', 'v3', 'v8', 't3', 't8'];
    const grid = effectiveExponentGrid(pdf, FIT_BASES.EVOL, order, 'alpha', [1e-9]);
    expect(grid.flavours).toEqual(order);
    expect(grid.values[0]).toBeCloseTo(1.02, 8);
    expect(grid.values[2]).toBeCloseTo(1.1, 8);
    expect(grid.values[order.length + 2]).toBeCloseTo(1.2, 8);
  });

  it('should refuse x outside (0, 1) or the grid, and x·f that does not fit it', () => {
    const pdf = evolReplicas([Array.from({ length: 8 }, () => [1, 3] as const)]);
    const basis = FIT_BASES.EVOL;
    expect(() => effectiveExponentGrid(pdf, basis, basis.flavours, 'beta', [1])).toThrow(
      InvalidArgumentError,
    );
    expect(() => effectiveExponentGrid(pdf, basis, basis.flavours, 'alpha', [1e-10])).toThrow(
      /outside the knots/,
    );
    const named = { ...pdf, gridFile: 'fit.exportgrid' };
    expect(() => effectiveExponentGrid(named, basis, basis.flavours, 'alpha', [1e-10])).toThrow(
      'fit.exportgrid: xgrid: spans x = 1e-9 … 1, but the effective exponents are read at x = 1e-10',
    );
    expect(() =>
      effectiveExponentGrid({ ...pdf, replicas: 2 }, basis, basis.flavours, 'alpha', [1e-6]),
    ).toThrow(ShapeError);
  });
});

describe('exponentBand', () => {
  it("should give numpy's nanmean and nanpercentile at 15.87 and 84.13, by hand", () => {
    // ranks 0.1587·4 = 0.6348 and 0.8413·4 = 3.3652 between the sorted values 1 … 5
    const band = exponentBand([3, 1, Number.NaN, 5, 2, 4]);
    expect(band.mean).toBe(3);
    expect(band.lower68).toBeCloseTo(1.6348, 14);
    expect(band.upper68).toBeCloseTo(4.3652, 14);
    expect(band.replicas).toBe(5);
    expect(exponentBand([0.7])).toEqual({ mean: 0.7, lower68: 0.7, upper68: 0.7, replicas: 1 });
    expect(exponentBand([Number.NaN]).mean).toBeNaN();
  });

  it('should give one band per (x, flavour) of a grid', () => {
    const grid = {
      exponent: 'alpha' as const,
      xGrid: Float64Array.from([1e-6, 1e-3]),
      flavours: ['sng', 'g'],
      // (replicas, x, flavour) = (3, 2, 2)
      values: Float64Array.from([1, 10, 2, 20, 2, 11, 3, 21, 3, 12, 4, 22]),
      replicas: 3,
    };
    expect(exponentBands(grid).map((band) => band.mean)).toEqual([2, 11, 3, 21]);
  });
});
