import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@partonfit/core';
import { loadLhapdfSet } from '@partonfit/io';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { betaCoefficients } from './beta-function.js';
import {
  createStrongCoupling,
  strongCouplingOfTheory,
  type StrongCouplingSettings,
} from './strong-coupling.js';
import { readTheoryCard } from './theory-card.js';

const NNPDF40 = 'lhapdf/NNPDF40_nnlo_as_01180';
const hasSet = hasSharedData(`${NNPDF40}/NNPDF40_nnlo_as_01180.info`, 'NNPDF4.0 LHAPDF set');
const hasCard = hasSharedData('theory_cards/200.yaml', 'theory card 200');

const MC = 1.51;
const MB = 4.92;
const MT = 172.5;

function settings(overrides: Partial<StrongCouplingSettings> = {}): StrongCouplingSettings {
  return {
    order: 2,
    alphaSRef: 0.118,
    qRef: 91.2,
    thresholds2: [MC * MC, MB * MB, MT * MT],
    thresholdLogs: [0, 0, 0],
    method: 'exact',
    ...overrides,
  };
}

describe.skipIf(!hasSet || !hasCard)('αs of theory 200 against NNPDF4.0', () => {
  it("should reproduce the set's AlphaS_Vals at every AlphaS_Qs to 1e-7", async () => {
    const set = await loadLhapdfSet(`${SHARED_DATA}${NNPDF40}`);
    const qs = set.record.AlphaS_Qs as number[];
    const values = set.record.AlphaS_Vals as number[];
    const card = await readTheoryCard(`${SHARED_DATA}theory_cards/200.yaml`);
    const alphaS = strongCouplingOfTheory(card);
    const differences = qs.map((q, i) => Math.abs(alphaS.alphaS(q) - values[i]));
    expect(qs).toHaveLength(50);
    // the file has 8 significant digits; the largest difference measured is 7e-9
    expect(Math.max(...differences)).toBeLessThan(1e-7);
    expect(alphaS.alphaS(91.1876)).toBeCloseTo(set.alphaSMZ!, 7);
  });
});

describe('createStrongCoupling', () => {
  it('should give the one-loop closed form at LO with both methods', () => {
    const a0 = 0.118 / (4 * Math.PI);
    for (const method of ['exact', 'expanded'] as const) {
      const alphaS = createStrongCoupling(settings({ order: 0, method }));
      const q = 20;
      const beta0 = betaCoefficients(5, 0)[0];
      const expected = (4 * Math.PI * a0) / (1 + beta0 * a0 * Math.log((q * q) / 91.2 ** 2));
      expect(alphaS.alphaS(q)).toBeCloseTo(expected, 12);
    }
  });

  it('should solve dαs/d ln μ² = β(αs) exactly at NNLO', () => {
    const alphaS = createStrongCoupling(settings());
    const q = 30;
    const h = 1e-4;
    const derivative =
      (alphaS.alphaS(q * Math.exp(h / 2)) - alphaS.alphaS(q * Math.exp(-h / 2))) / (2 * h);
    const a = alphaS.alphaS(q) / (4 * Math.PI);
    const [b0, b1, b2] = betaCoefficients(5, 2);
    const expected = -4 * Math.PI * a * a * (b0 + b1 * a + b2 * a * a);
    expect(derivative / expected).toBeCloseTo(1, 6);
  });

  it('should differ between the exact and expanded solutions only beyond the order', () => {
    const exact = createStrongCoupling(settings({ order: 1 })).alphaS(2);
    const expanded = createStrongCoupling(settings({ order: 1, method: 'expanded' })).alphaS(2);
    const a = exact / (4 * Math.PI);
    expect(Math.abs(exact - expanded) / exact).toBeGreaterThan(a * a);
    expect(Math.abs(exact - expanded) / exact).toBeLessThan(20 * a * a);
  });

  it('should be continuous at a threshold at the mass up to NLO and jump by 14/3·a² at NNLO', () => {
    for (const order of [0, 1] as const) {
      const alphaS = createStrongCoupling(settings({ order }));
      expect(alphaS.alphaS(MB, 4)).toBeCloseTo(alphaS.alphaS(MB, 5), 14);
    }
    const alphaS = createStrongCoupling(settings());
    // matched downwards from MZ: a^(4) = a^(5)·(1 − 14/3·(a^(5))²)
    const a = alphaS.alphaS(MB) / (4 * Math.PI);
    expect(alphaS.alphaS(MB, 4) / (4 * Math.PI)).toBeCloseTo(a * (1 - (14 / 3) * a * a), 14);
    expect(alphaS.activeFlavours(MB)).toBe(5);
    expect(alphaS.activeFlavours(MB - 1e-9)).toBe(4);
  });

  it('should match by 2L/3·a at NLO when the threshold sits at twice the mass', () => {
    const L = 2 * Math.log(2);
    const alphaS = createStrongCoupling(
      settings({ order: 1, thresholds2: [MC * MC, (2 * MB) ** 2], thresholdLogs: [0, L] }),
    );
    const a = alphaS.alphaS(2 * MB) / (4 * Math.PI);
    expect(alphaS.alphaS(2 * MB, 4) / (4 * Math.PI)).toBeCloseTo(a * (1 - ((2 * L) / 3) * a), 14);
  });

  it('should run with at most MaxNfAs flavours', () => {
    const alphaS = createStrongCoupling(settings({ thresholds2: [MC * MC, MB * MB] }));
    expect(alphaS.activeFlavours(1000)).toBe(5);
    expect(alphaS.activeFlavours(1)).toBe(3);
  });

  it('should refuse a number of flavours that does not apply at the scale', () => {
    const alphaS = createStrongCoupling(settings());
    expect(() => alphaS.alphaS(10, 4)).toThrow(InvalidArgumentError);
    expect(() => alphaS.alphaS(-1)).toThrow(/q: expected > 0/);
    expect(() => createStrongCoupling(settings({ alphaSRef: 1.5 }))).toThrow(InvalidArgumentError);
  });

  it('should take αs(qRef) on a threshold in the lower number of flavours when asked', () => {
    const a = 0.35 / (4 * Math.PI);
    const above = createStrongCoupling(settings({ alphaSRef: 0.35, qRef: MC }));
    expect(above.alphaS(MC)).toBeCloseTo(0.35, 14);
    const below = createStrongCoupling(
      settings({ alphaSRef: 0.35, qRef: MC, referenceFlavours: 3 }),
    );
    expect(below.alphaS(MC, 3)).toBeCloseTo(0.35, 14);
    // matched upwards at the mass: a^(4) = a^(3)·(1 + 14/3·(a^(3))²)
    expect(below.alphaS(MC) / (4 * Math.PI)).toBeCloseTo(a * (1 + (14 / 3) * a * a), 14);
    expect(() => createStrongCoupling(settings({ referenceFlavours: 4 }))).toThrow(
      /referenceFlavours: 4 active flavours do not apply at Q = 91.2 GeV \(5 do\)/,
    );
  });

  it('should run with a fixed number of flavours at every scale', () => {
    const alphaS = createStrongCoupling(
      settings({ order: 0, thresholds2: [], thresholdLogs: [], fixedFlavours: 4 }),
    );
    expect(alphaS.activeFlavours(1)).toBe(4);
    expect(alphaS.activeFlavours(1000)).toBe(4);
    const a0 = 0.118 / (4 * Math.PI);
    const beta0 = betaCoefficients(4, 0)[0];
    const expected = (4 * Math.PI * a0) / (1 + beta0 * a0 * Math.log(1000 ** 2 / 91.2 ** 2));
    expect(alphaS.alphaS(1000)).toBeCloseTo(expected, 12);
    expect(() => createStrongCoupling(settings({ fixedFlavours: 4 }))).toThrow(
      InvalidArgumentError,
    );
  });
});
