import {
  EVOLUTION_BASIS_SIZE,
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
  InvalidArgumentError,
  evolutionIndex,
  rotateFlavours,
  SeededRandom,
  type LhaFlavour,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { predictFkTable } from '../fktable/predict.js';
import {
  combinationValues,
  F2_CHARM_PROTON,
  F2_DEUTERON,
  F2_PROTON,
  pdfValue,
  XF3_NEUTRINO_PROTON,
  type FlavourCombination,
} from './lo-dis.js';
import { evolutionCoefficients, loFkTable } from './lo-fk-table.js';
import { interpolationXGrid } from './x-interpolation.js';

const GRID = interpolationXGrid({ xMin: 1e-5, xMax: 0.9, nodes: 50 });

/** A random flavour-basis x·f at `points` points, shape `(point, flavour)`. */
function randomFlavourXf(points: number, seed: number): Float64Array {
  const random = new SeededRandom(seed);
  return Float64Array.from({ length: points * FLAVOUR_BASIS.length }, () =>
    random.uniformBetween(-1, 1),
  );
}

describe('evolutionCoefficients', () => {
  it('should give the same value in the evolution basis as the combination in the flavour basis', () => {
    const flavourXf = randomFlavourXf(10, 7);
    const evolutionXf = rotateFlavours(FLAVOUR_TO_EVOLUTION, flavourXf);
    for (const combination of [F2_PROTON, F2_DEUTERON, XF3_NEUTRINO_PROTON, F2_CHARM_PROTON]) {
      const coefficients = evolutionCoefficients(combination);
      const direct = combinationValues(combination, flavourXf);
      direct.forEach((value, point) => {
        let rotated = 0;
        coefficients.forEach((coefficient, c) => {
          rotated += coefficient * evolutionXf[point * EVOLUTION_BASIS_SIZE + c];
        });
        expect(rotated).toBeCloseTo(value, 14);
      });
    }
  });

  it('should give F2ᵖ as 5/27 Σ + 1/6 T3 + 1/18 T8 − 1/18 T15 + …, with exact zeros for V, g and γ', () => {
    // u⁺ = Σ/6 + T3/2 + T8/6 + T15/12 + T24/20 + T35/30, d⁺ = … − T3/2 …, s⁺ = Σ/6 − T8/3 + …
    const coefficients = evolutionCoefficients(F2_PROTON);
    const at = (name: Parameters<typeof evolutionIndex>[0]) => coefficients[evolutionIndex(name)];
    expect(at('Sigma')).toBeCloseTo((2 * (4 / 9 + 1 / 9 + 1 / 9 + 4 / 9)) / 12, 15);
    expect(at('T3')).toBeCloseTo((4 / 9 - 1 / 9) / 2, 15);
    expect(at('T8')).toBeCloseTo((4 / 9 + 1 / 9 - 2 / 9) / 6, 15);
    expect(at('T15')).toBeCloseTo((4 / 9 + 1 / 9 + 1 / 9 - 3 * (4 / 9)) / 12, 15);
    for (const zero of ['photon', 'g', 'V', 'V3', 'V8', 'V15', 'V24', 'V35'] as const) {
      expect(at(zero)).toBe(0);
    }
    expect(Array.from(evolutionCoefficients(pdfValue('GLUON')))).toEqual([
      0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
  });
});

describe('loFkTable', () => {
  const x = Float64Array.from([1e-5, 3e-4, 0.02, 0.25, 0.8, 0.9]);
  const table = loFkTable({ name: 'TEST_F2P', combination: F2_PROTON, x, xGrid: GRID });

  it('should build a valid compact DIS table: shapes, ascending channels, finite values', () => {
    expect(table.hadronic).toBe(false);
    expect(table.ndata).toBe(6);
    expect(table.xGrid).toBe(GRID);
    expect(table.q0).toBe(Math.SQRT2);
    expect(table.file).toBe('<generated>');
    expect(table.cFactors).toEqual([]);
    expect(table.channels).toEqual([1, 9, 10, 11, 12, 13]);
    expect(table.values).toHaveLength(6 * 6 * 50);
    expect(table.values.every(Number.isFinite)).toBe(true);
    for (let row = 0; row < 6 * 6; row++) {
      const entries = table.values.subarray(row * 50, row * 50 + 50);
      expect(entries.filter((value) => value !== 0).length).toBeLessThanOrEqual(6);
    }
  });

  it('should predict the combination exactly for a PDF sampled at nodes, and interpolate between them', () => {
    const flavourXf = randomFlavourXf(50, 11);
    const predictions = predictFkTable(table, rotateFlavours(FLAVOUR_TO_EVOLUTION, flavourXf));
    const atNodes = combinationValues(F2_PROTON, flavourXf);
    expect(predictions[0]).toBeCloseTo(atNodes[0], 14);
    expect(predictions[5]).toBeCloseTo(atNodes[49], 14);
    const smooth = Float64Array.from({ length: 50 * 14 }, (_, i) => {
      const xa = GRID[Math.floor(i / 14)];
      return (1 + (i % 14)) * xa ** 0.5 * (1 - xa) ** 2;
    });
    const smoothPredictions = predictFkTable(table, rotateFlavours(FLAVOUR_TO_EVOLUTION, smooth));
    const exactSmooth = combinationValues(
      F2_PROTON,
      Float64Array.from({ length: 6 * 14 }, (_, i) => {
        const xn = x[Math.floor(i / 14)];
        return (1 + (i % 14)) * xn ** 0.5 * (1 - xn) ** 2;
      }),
    );
    smoothPredictions.forEach((value, n) => {
      expect(Math.abs(value / exactSmooth[n] - 1)).toBeLessThan(1e-5);
    });
  });

  it('should name the table when its combination or points are bad', () => {
    const zero: FlavourCombination = { U: 0 };
    expect(() => loFkTable({ name: 'ZERO', combination: zero, x, xGrid: GRID })).toThrow(
      'combination of ZERO: is zero',
    );
    const notANumber: FlavourCombination = { U: Number.NaN };
    expect(() => loFkTable({ name: 'NAN', combination: notANumber, x, xGrid: GRID })).toThrow(
      InvalidArgumentError,
    );
    const outside = Float64Array.from([0.5, 0.95]);
    expect(() =>
      loFkTable({ name: 'HIGH', combination: F2_PROTON, x: outside, xGrid: GRID }),
    ).toThrow('x of HIGH: point 1 (x = 0.95) is outside the x-grid [0.00001, 0.9]');
  });

  it('should give a PDF-value table the single channel of its flavour', () => {
    const names: LhaFlavour[] = ['GLUON', 'PHT'];
    expect(
      names.map((name) => loFkTable({ name, combination: pdfValue(name), x, xGrid: GRID })),
    ).toMatchObject([{ channels: [2] }, { channels: [0] }]);
  });
});
