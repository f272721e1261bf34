import {
  EVOLUTION_BASIS_SIZE,
  InvalidArgumentError,
  ShapeError,
  evolutionIndex,
  type EvolutionFlavour,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '@partonfit/testing/shared-data';
import {
  readReferenceExportGrid,
  readReferenceJson,
  REFERENCE_EXPORT_GRID,
  REFERENCE_JSON,
  referencePdf,
} from './fit-folder.fixture.js';
import {
  ARC_LENGTH_FLAVOURS,
  ARC_LENGTH_X_GRID,
  INTEGRABILITY_FLAVOURS,
  INTEGRABILITY_X_GRID,
  arcLengths,
  arcLengthsFromValues,
  integrabilityNumbers,
  type EvolutionPdf,
} from './fit-quality.js';

const hasReference =
  hasSharedData(REFERENCE_EXPORT_GRID, 'arc lengths against upstream') &&
  hasSharedData(REFERENCE_JSON, 'arc lengths against upstream');

/** Each segment [a, b] is integrated over [a + ε, b − ε] with ε = (b − a)/199. */
const SEGMENTS: readonly [number, number][] = [
  [1e-6, 1e-4],
  [1e-4, 1e-2],
  [1e-2, 1],
];

/** A PDF with x·f_k(x) = shape(x, k) for every evolution flavour k. */
function pdfOf(shape: (x: number, flavour: number) => number): EvolutionPdf {
  return (xGrid) => {
    const values = new Float64Array(xGrid.length * EVOLUTION_BASIS_SIZE);
    xGrid.forEach((x, ix) => {
      for (let flavour = 0; flavour < EVOLUTION_BASIS_SIZE; flavour++) {
        values[ix * EVOLUTION_BASIS_SIZE + flavour] = shape(x, flavour);
      }
    });
    return values;
  };
}

describe('ARC_LENGTH_X_GRID', () => {
  it('should hold 199 points per segment, each segment without its upper end', () => {
    expect(ARC_LENGTH_X_GRID).toHaveLength(597);
    SEGMENTS.forEach(([low, high], segment) => {
      expect(ARC_LENGTH_X_GRID[segment * 199]).toBe(low);
      expect(ARC_LENGTH_X_GRID[segment * 199 + 198]).toBeCloseTo(high - (high - low) / 199, 15);
    });
  });
});

describe('arcLengths', () => {
  it('should give √(1 + c²) times the integrated length for x·f = c (the line F = c·x)', () => {
    const slopes = [0, 0.5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const lengths = arcLengths(pdfOf((_x, flavour) => slopes[flavour]));
    const span = (1 - 1e-6) * (197 / 199);
    ARC_LENGTH_FLAVOURS.forEach((flavour, output) => {
      const slope = slopes[evolutionIndex(flavour)];
      expect(lengths[output]).toBeCloseTo(Math.sqrt(1 + slope * slope) * span, 12);
    });
  });

  it('should integrate √(1 + (2x − ε)²) for x·f = x (the parabola F = x²)', () => {
    // forward differences of x² are exactly x_k + x_{k−1} = 2x_k − ε
    const primitive = (u: number) => (u * Math.sqrt(1 + u * u) + Math.asinh(u)) / 4;
    const expected = SEGMENTS.reduce((sum, [low, high]) => {
      const step = (high - low) / 199;
      return sum + primitive(2 * (high - step) - step) - primitive(2 * (low + step) - step);
    }, 0);
    const lengths = arcLengths(pdfOf((x) => x));
    for (const length of lengths) expect(length).toBeCloseTo(expected, 9);
  });

  it('should read Σ, g, V, V3, V8 from their own columns', () => {
    const lengths = arcLengths(pdfOf((_x, flavour) => flavour));
    ARC_LENGTH_FLAVOURS.forEach((flavour, output) => {
      const slope = evolutionIndex(flavour);
      expect(lengths[output]).toBeCloseTo(
        Math.sqrt(1 + slope * slope) * (1 - 1e-6) * (197 / 199),
        12,
      );
    });
  });

  it('should reject values of the wrong shape and non-finite values', () => {
    expect(() => arcLengthsFromValues(new Float64Array(10))).toThrow(ShapeError);
    expect(() => arcLengths(pdfOf((x) => (x > 0.5 ? Number.NaN : x)))).toThrow(
      InvalidArgumentError,
    );
  });

  describe.skipIf(!hasReference)('against upstream n3fit output', () => {
    it('should reproduce the arc lengths of quickcard_1.json from its exportgrid', () => {
      const expected = readReferenceJson().arc_lengths as number[];
      const lengths = arcLengths(referencePdf(readReferenceExportGrid()));
      lengths.forEach((length, output) => {
        // the exportgrid interpolated by a spline in log x stands in for the network
        expect(Math.abs(length / expected[output] - 1)).toBeLessThan(1e-6);
      });
    });
  });
});

describe('integrabilityNumbers', () => {
  it('should sum |x·f| at x = 1e-9, 1e-8, 1e-7 for V, T3, V3, T8, V8', () => {
    expect(Array.from(INTEGRABILITY_X_GRID)).toEqual([1e-9, 1e-8, 1e-7]);
    const powers: Partial<Record<EvolutionFlavour, number>> = {
      V: 0.3,
      T3: 0.5,
      V3: 0.1,
      T8: 0.7,
      V8: 0.2,
    };
    const pdf = pdfOf((x, flavour) => {
      const name = INTEGRABILITY_FLAVOURS.find(
        (candidate) => evolutionIndex(candidate) === flavour,
      );
      // alternating signs: the number is a sum of absolute values
      return name === undefined ? 100 : (flavour % 2 === 0 ? -1 : 1) * x ** (powers[name] ?? 0);
    });
    const numbers = integrabilityNumbers(pdf);
    INTEGRABILITY_FLAVOURS.forEach((name, output) => {
      const power = powers[name] ?? 0;
      expect(numbers[output]).toBeCloseTo(1e-9 ** power + 1e-8 ** power + 1e-7 ** power, 14);
    });
  });

  describe.skipIf(!hasReference)('against upstream n3fit output', () => {
    it('should reproduce the integrability numbers of quickcard_1.json', () => {
      const expected = readReferenceJson().integrability as number[];
      const numbers = integrabilityNumbers(referencePdf(readReferenceExportGrid()));
      numbers.forEach((value, output) => {
        // V3 ≈ 4e-7 is a difference of float32 numbers of order 0.1
        expect(Math.abs(value - expected[output])).toBeLessThan(5e-8 + 1e-5 * expected[output]);
      });
    });
  });
});
