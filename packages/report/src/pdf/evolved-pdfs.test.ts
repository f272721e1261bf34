import { EVOLUTION_TO_FLAVOUR, FLAVOUR_BASIS, rotateFlavours } from '@partonfit/core';
import {
  cachedEvolutionOperator,
  embeddedTheoryCard,
  evolvePdfs,
  TOY_LH_LO_THEORY,
  type EvolutionOperator,
  type TheoryCard,
} from '@partonfit/evolution';
import { EXPORT_X_GRID } from '@partonfit/fit-folder';
import { toyPdfXf } from '@partonfit/fktables';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkReportScales, evolvePdfReplicas, largestEvolvedScale } from './evolved-pdfs.js';
import { replicaMean, singlePdf, type PdfReplicas } from './pdf-replicas.js';

const FLAVOURS = FLAVOUR_BASIS.length;
const SCALES = [10, 100];
const REPLICAS = 3;

function toyCard(): TheoryCard {
  const card = embeddedTheoryCard(TOY_LH_LO_THEORY);
  if (card === undefined) throw new Error('expected the embedded toy theory card');
  return card;
}

/** Three replicas of the Les Houches toy PDF at Q0 = √2 GeV, scaled by 1 + 0.05·sin r. */
function toyReplicas(): PdfReplicas {
  const toy = rotateFlavours(EVOLUTION_TO_FLAVOUR, toyPdfXf(EXPORT_X_GRID));
  const replicas = new Float64Array(REPLICAS * toy.length);
  for (let r = 0; r < REPLICAS; r++) {
    replicas.set(
      toy.map((value) => value * (1 + 0.05 * Math.sin(r + 1))),
      r * toy.length,
    );
  }
  return {
    label: 'toy',
    kind: 'fit',
    q: Math.SQRT2,
    xGrid: EXPORT_X_GRID,
    central: replicaMean(replicas, REPLICAS),
    replicas,
    replicaCount: REPLICAS,
    notes: ['3 replicas'],
  };
}

/** The largest |a − b| over two arrays, relative to the largest |b|. */
function relativeDifference(a: Float64Array, b: Float64Array): number {
  let difference = 0;
  let largest = 0;
  b.forEach((value, i) => {
    difference = Math.max(difference, Math.abs(a[i] - value));
    largest = Math.max(largest, Math.abs(value));
  });
  return difference / largest;
}

/** ∫ x·(Σ + g) dx over the grid by the trapezoid rule: the momentum the quarks and gluon carry. */
function momentumSum(central: Float64Array, xGrid: Float64Array): number {
  const quarksAndGluon = FLAVOUR_BASIS.flatMap((flavour, f) => (flavour.pid === 22 ? [] : [f]));
  const at = (a: number) => quarksAndGluon.reduce((sum, f) => sum + central[a * FLAVOURS + f], 0);
  let sum = 0;
  for (let a = 1; a < xGrid.length; a++)
    sum += ((at(a) + at(a - 1)) / 2) * (xGrid[a] - xGrid[a - 1]);
  return sum;
}

describe('evolvePdfReplicas', () => {
  const card = toyCard();
  let operator: EvolutionOperator;

  beforeAll(async () => {
    const options = { xGrid: EXPORT_X_GRID, qGrid: SCALES, thresholdKnots: 'evolven3fit' as const };
    operator = (await cachedEvolutionOperator(card, options, { cacheFolder: null })).operator;
  });

  it('should evolve every replica as evolvePdfs does, the central value their mean', () => {
    const fit = toyReplicas();
    const evolved = evolvePdfReplicas(fit, operator, card.file);
    expect(evolved.map((set) => set.q)).toEqual(SCALES);
    // The direct evolution, without an operator: (replicas, q, x, flavours).
    const direct = evolvePdfs(
      card,
      { xGrid: EXPORT_X_GRID, qGrid: SCALES, thresholdKnots: 'evolven3fit' },
      fit.replicas,
      REPLICAS,
    );
    const points = EXPORT_X_GRID.length * FLAVOURS;
    SCALES.forEach((_, scale) => {
      const replicas = new Float64Array(REPLICAS * points);
      for (let r = 0; r < REPLICAS; r++) {
        const from = (r * SCALES.length + scale) * points;
        replicas.set(direct.subarray(from, from + points), r * points);
      }
      expect(relativeDifference(evolved[scale].replicas, replicas)).toBeLessThan(1e-10);
      const mean = replicaMean(replicas, REPLICAS);
      expect(relativeDifference(evolved[scale].central, mean)).toBeLessThan(1e-14);
    });
    expect(evolved[1].label).toBe('toy');
    expect(evolved[1].notes).toEqual([
      '3 replicas',
      'evolved from Q0 = 1.414 GeV with embedded theory card toyLH-LO',
    ]);
  });

  it('should move momentum from the quarks to the gluon at small x, conserving the total', () => {
    const fit = toyReplicas();
    const [, at100] = evolvePdfReplicas(fit, operator, card.file);
    const gluon = FLAVOUR_BASIS.findIndex((flavour) => flavour.pid === 21);
    const small = EXPORT_X_GRID.findIndex((x) => x >= 1e-4);
    // x·g(10⁻⁴) grows from Q0 = √2 GeV to 100 GeV (LO DGLAP, αs(√2 GeV) = 0.35).
    const ratio = at100.central[small * FLAVOURS + gluon] / fit.central[small * FLAVOURS + gluon];
    expect(ratio).toBeGreaterThan(10);
    // The momentum sum rule holds at every scale, to the trapezoid rule's accuracy on the grid.
    const atQ0 = momentumSum(fit.central, EXPORT_X_GRID);
    expect(Math.abs(momentumSum(at100.central, EXPORT_X_GRID) / atQ0 - 1)).toBeLessThan(2e-3);
  });

  it('should evolve a single PDF (a closure test’s truth) as one member', () => {
    const truth = singlePdf('truth', toyPdfXf, EXPORT_X_GRID, Math.SQRT2);
    const [at10, at100] = evolvePdfReplicas(truth, operator, card.file);
    expect([at10.replicaCount, at100.replicas.length, at100.kind]).toEqual([0, 0, 'truth']);
    const direct = evolvePdfs(
      card,
      { xGrid: EXPORT_X_GRID, qGrid: SCALES, thresholdKnots: 'evolven3fit' },
      truth.central,
      1,
    );
    const points = EXPORT_X_GRID.length * FLAVOURS;
    expect(relativeDifference(at100.central, direct.subarray(points, 2 * points))).toBeLessThan(
      1e-10,
    );
  });

  it('should refuse a set at another scale than the operator’s Q0', () => {
    const fit = { ...toyReplicas(), q: 1.65 };
    expect(() => evolvePdfReplicas(fit, operator, card.file)).toThrow(
      'pdf: toy is at Q = 1.65 GeV, the operator evolves from Q0 = 1.4142135623730951 GeV',
    );
  });
});

describe('checkReportScales', () => {
  const card = toyCard();

  it('should take Q0 and any scale up to the end of the evolution grid', () => {
    expect(largestEvolvedScale(card)).toBe(1e5);
    expect(() => {
      checkReportScales([1.4142, 1.5, 100, 1e5], Math.SQRT2, card);
    }).not.toThrow();
    // Without a theory card only the fit's Q0 can be drawn.
    expect(() => {
      checkReportScales([1.41421], Math.SQRT2, undefined);
    }).not.toThrow();
  });

  it('should name the argument and the scale it cannot draw', () => {
    const check = (scales: number[], theory: TheoryCard | undefined) => () => {
      checkReportScales(scales, Math.SQRT2, theory, '--q');
    };
    expect(check([100, 1], card)).toThrow(
      "--q: Q = 1 GeV is below the fit's Q0 = 1.4142135623730951 GeV: PDFs are evolved up from Q0",
    );
    expect(check([2e5], card)).toThrow(
      '--q: Q = 200000 GeV is above the evolution grid of embedded theory card toyLH-LO, which ends at 100000 GeV',
    );
    expect(check([100], undefined)).toThrow(
      "--q: Q = 100 GeV is not the fit's Q0 = 1.4142135623730951 GeV, and there is no theory card to evolve the fit with",
    );
    expect(check([0], card)).toThrow('--q: expected scales Q > 0 in GeV, got 0');
    expect(check([], card)).toThrow('--q: expected at least one scale Q in GeV');
  });

  it("should compare with the fit's Q0, not the card's: the fit's Q0 needs no card", () => {
    // a fit at Q0 = 1.65 GeV and the toy card's Q0 = √2 GeV
    const atFitQ0 = (theory: TheoryCard | undefined) => () => {
      checkReportScales([1.65, 1.6501], 1.65, theory, '--q');
    };
    expect(atFitQ0(undefined)).not.toThrow();
    expect(atFitQ0(card)).not.toThrow();
    // 1.5 GeV lies above the card's Q0 but below the fit's, and the card starts elsewhere
    expect(() => {
      checkReportScales([1.5], 1.65, card, '--q');
    }).toThrow(
      "--q: Q = 1.5 GeV needs the fit evolved from its Q0 = 1.65 GeV (its exportgrids' q20), but embedded theory card toyLH-LO has Q0 = 1.4142135623730951 GeV",
    );
    expect(() => {
      checkReportScales([1.5], 1.65, { ...card, q0: 1.65 }, '--q');
    }).toThrow("--q: Q = 1.5 GeV is below the fit's Q0 = 1.65 GeV: PDFs are evolved up from Q0");
  });
});
