import { readFile } from 'node:fs/promises';
import {
  EVOLUTION_TO_FLAVOUR,
  FIT_BASES,
  fitBasisToEvolution,
  parseRuncard,
  rotateFlavours,
} from '@partonfit/core';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { EXPORT_X_GRID } from '../folder/export-x-grid.js';
import { exponentBand } from './effective-exponents.js';
import {
  nextLargexRange,
  nextPreprocessing,
  nextSmallxRange,
  preprocessingRangeText,
  significantDigits,
} from './next-preprocessing.js';

/** The band of five replicas' exponents (see `exponentBand`). */
const band = (...values: number[]) => exponentBand(values);

describe("upstream's rule for the next ranges, by hand", () => {
  // Five replicas 1.0 … 1.4: mean 1.2, 68 % interval [1.06348, 1.33652] (ranks 0.6348 and
  // 3.3652), doubled about the mean: [1.2 − 2·0.13652, 1.2 + 2·0.13652] = [0.92696, 1.47304].
  const atSmallestX = band(1.0, 1.1, 1.2, 1.3, 1.4);
  // 0.8 … 1.2: mean 1, doubled interval [0.72696, 1.27304].
  const atLargerX = band(0.8, 0.9, 1.0, 1.1, 1.2);

  it('should read Σ and g at x = 1e-6 only, the others at both x, and round to 4 digits', () => {
    expect(nextSmallxRange('sng', [atSmallestX, atLargerX])).toEqual([0.927, 1.473]);
    expect(nextSmallxRange('g', [atSmallestX, atLargerX])).toEqual([0.927, 1.473]);
    // [min(0.92696, 0.72696), max(1.47304, 1.27304)]
    expect(nextSmallxRange('t15', [atSmallestX, atLargerX])).toEqual([0.727, 1.473]);
  });

  it('should cap α at 2, and at 1 for V, V3, V8, T3, T8 (both ends)', () => {
    // 1.5 … 2.3: mean 1.9, doubled interval [1.35392, 2.44608]
    expect(nextSmallxRange('g', [band(1.5, 1.7, 1.9, 2.1, 2.3), atLargerX])).toEqual([1.354, 2]);
    for (const flavour of ['v', 'v3', 'v8', 't3', 't8']) {
      expect(nextSmallxRange(flavour, [atSmallestX, atLargerX])).toEqual([0.727, 1]);
      expect(nextSmallxRange(flavour, [band(1.5, 1.7, 1.9, 2.1, 2.3), atSmallestX])).toEqual([
        0.927, 1,
      ]);
    }
  });

  it('should take β from both x, floored at 0', () => {
    // 2 … 4: doubled [1.6348, 4.3652]; 0.2 … 1: mean 0.6, doubled [0.05392, 1.14608]
    const atMediumX = band(2, 2.5, 3, 3.5, 4);
    expect(nextLargexRange([atMediumX, band(0.2, 0.4, 0.6, 0.8, 1)])).toEqual([0.05392, 4.365]);
    // −0.5 … 1.5: doubled [−0.8652, 1.8652]
    expect(nextLargexRange([atMediumX, band(-0.5, 0, 0.5, 1, 1.5)])).toEqual([0, 4.365]);
  });

  it('should propose nothing where an exponent is not finite', () => {
    expect(nextSmallxRange('v', [band(Number.NaN), atLargerX])).toBeUndefined();
    expect(nextLargexRange([band(1, 2), band(Number.NaN)])).toBeUndefined();
  });
});

describe('preprocessingRangeText', () => {
  it('should write a range with its rounded numbers as they are, and a dash for none', () => {
    // the β range of the hand-worked bands above: [0.05392, 4.365]
    const band5 = band(0.2, 0.4, 0.6, 0.8, 1);
    expect(preprocessingRangeText(nextLargexRange([band(2, 2.5, 3, 3.5, 4), band5]))).toBe(
      '[0.05392, 4.365]',
    );
    expect(preprocessingRangeText([0, 2])).toBe('[0, 2]');
    expect(preprocessingRangeText(nextLargexRange([band5, band(Number.NaN)]))).toBe('—');
  });
});

describe('significantDigits', () => {
  it("should round to even on exact ties, as Python's decimal, and to nearest otherwise", () => {
    expect(significantDigits(2.5625, 4)).toBe(2.562);
    expect(significantDigits(1.1875, 4)).toBe(1.188);
    expect(significantDigits(-2.5625, 4)).toBe(-2.562);
    expect(significantDigits(0.000123456, 4)).toBe(0.0001235);
    expect(significantDigits(123456, 4)).toBe(123500);
    expect(significantDigits(0.99996, 4)).toBe(1);
    expect(significantDigits(1.47304, 4)).toBe(1.473);
    expect(significantDigits(0, 4)).toBe(0);
  });
});

/**
 * Five replicas on n3fit's export grid whose EVOL flavours are x^(1−a)·(1−x)^b with
 * a = a₀ + 0.1·(r − 2) and b = b₀ + 0.5·(r − 2) for replica r = 0 … 4.
 */
function analyticReplicas(central: readonly (readonly [number, number])[]) {
  const toEvolution = fitBasisToEvolution(FIT_BASES.EVOL);
  const size = EXPORT_X_GRID.length * 14;
  const xf = new Float64Array(5 * size);
  for (let r = 0; r < 5; r++) {
    const fitted = new Float64Array(EXPORT_X_GRID.length * central.length);
    EXPORT_X_GRID.forEach((x, ix) => {
      central.forEach(([a, b], f) => {
        const [ar, br] = [a + 0.1 * (r - 2), b + 0.5 * (r - 2)];
        fitted[ix * central.length + f] = x ** (1 - ar) * (1 - x) ** br;
      });
    });
    xf.set(rotateFlavours(EVOLUTION_TO_FLAVOUR, rotateFlavours(toEvolution, fitted)), r * size);
  }
  return { xGrid: EXPORT_X_GRID, xf, replicas: 5 };
}

describe('nextPreprocessing', () => {
  const central = [
    [1.1, 3],
    [1.05, 5],
    [0.8, 3],
    [0.5, 3],
    [0.5, 3],
    [0.4, 3],
    [1.0, 3],
    [1.0, 3],
  ] as const;

  it("should propose each flavour's ranges from its replicas' exponents, beside the runcard's", async () => {
    const { runcard } = parseRuncard(await readFile(CLOSURE_RUNCARD, 'utf8'));
    const proposals = nextPreprocessing(analyticReplicas(central), runcard);
    expect(proposals.map((proposal) => proposal.flavour)).toEqual(FIT_BASES.EVOL.flavours);
    const [sng, , v] = proposals;
    expect(sng.used).toEqual({ smallx: [1.05, 1.15], largex: [2.5, 3.5] });
    // α_eff(10⁻⁶) ≈ a: replicas a₀ ± 0.1, ± 0.2, whose interval doubled is a₀ ± 0.27304
    expect(sng.smallx[0].mean).toBeCloseTo(1.1, 4);
    expect(sng.proposed.smallx?.[0]).toBeCloseTo(1.1 - 0.27304, 3);
    expect(sng.proposed.smallx?.[1]).toBeCloseTo(1.1 + 0.27304, 3);
    // V: a₀ = 0.8; at 10⁻³ α_eff = a − b·ln(1 − x)/ln x ≈ a − 0.0004; 0.8 + 0.273 capped at 1
    expect(v.proposed.smallx?.[0]).toBeCloseTo(0.8 - 0.27304 - 0.00044, 3);
    expect(v.proposed.smallx?.[1]).toBe(1);
    // β from the wider of the two: at 0.65 β_eff = b − a·ln x/ln(1 − x) spreads more
    const [atMedium, atLarge] = sng.largex;
    expect(atLarge.mean).toBeCloseTo(3 - (1.1 * Math.log(0.95)) / Math.log(0.05), 3);
    expect(sng.proposed.largex?.[1]).toBeGreaterThan(atMedium.upper68);
  });

  it('should propose no large-x range with feature_scaling_points', async () => {
    const text = (await readFile(CLOSURE_RUNCARD, 'utf8'))
      .replace('  epochs: 8000', '  epochs: 8000\n  feature_scaling_points: 15')
      .replace(/, largex: \[[\d., ]+\]/g, '');
    const { runcard } = parseRuncard(text);
    const proposals = nextPreprocessing(analyticReplicas(central), runcard);
    for (const proposal of proposals) {
      expect(proposal.used.largex).toBeUndefined();
      expect(proposal.proposed.largex).toBeUndefined();
      expect(proposal.proposed.smallx).toBeDefined();
    }
  });
});
