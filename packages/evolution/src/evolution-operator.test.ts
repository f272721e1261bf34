import { describe, expect, it } from 'vitest';
import {
  EVOLUTION_BASIS_SIZE,
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
  InvalidArgumentError,
  evolutionIndex,
  rotateFlavours,
} from '@partonfit/core';
import { inputFileError } from '@partonfit/testing';
import { applyEvolutionOperator } from './apply-operator.js';
import { betaCoefficients } from './beta-function.js';
import { buildEvolutionOperator } from './evolution-operator.js';
import { evolvePdfs } from './evolve-pdfs.js';
import { logLagrangeBasis, mellinWeights } from './interpolation.js';
import { kernelMoment } from './kernels/moments.js';
import { splittingKernels } from './kernels/splitting-functions.js';
import { operatorCacheKey } from './operator-cache.js';
import { createStrongCoupling, strongCouplingOfTheory } from './strong-coupling.js';
import { toyPdfs, toyTheoryCard as card, X_GRID } from './toy-proton.fixture.js';

const FLAVOURS = FLAVOUR_BASIS.length;

describe('buildEvolutionOperator and evolvePdfs', () => {
  const qGrid = [1.4, 2, 4.92, 4.92, 10, 100, 1000];

  it('should give the same PDFs whether the operator is built and applied or the PDFs evolved', () => {
    const theory = card('');
    const xf = toyPdfs(2);
    const operator = buildEvolutionOperator(theory, { xGrid: X_GRID, qGrid });
    const applied = applyEvolutionOperator(operator, xf, 2);
    const direct = evolvePdfs(theory, { xGrid: X_GRID, qGrid }, xf, 2);
    let largest = 0;
    for (let i = 0; i < direct.length; i++) largest = Math.max(largest, Math.abs(direct[i]));
    for (let i = 0; i < direct.length; i++)
      expect(Math.abs(applied[i] - direct[i])).toBeLessThan(1e-12 * largest);
    expect(operator.activeFlavours).toEqual([3, 4, 4, 5, 5, 5, 5]);
    expect(operator.alphaS[6]).toBeCloseTo(
      createStrongCoupling({
        order: 2,
        alphaSRef: 0.118,
        qRef: 91.2,
        thresholds2: [1.51 ** 2, 4.92 ** 2],
        thresholdLogs: [0, 0],
        method: 'expanded',
      }).alphaS(1000),
      14,
    );
  }, 120_000);

  it.each([
    [0, 'EXA'],
    [1, 'TRN'],
    [2, 'TRN'],
    [2, 'EXA'],
  ] as const)(
    'should conserve momentum and the valence sum rules through the thresholds (PTO %i, %s)',
    (order, method) => {
      const theory = card(`PTO: ${order}\nModEv: ${method}`);
      const xf = toyPdfs(1);
      const evolved = evolvePdfs(theory, { xGrid: X_GRID, qGrid }, xf, 1);
      const basis = logLagrangeBasis(X_GRID, 4);
      const momentum = mellinWeights(basis, 2);
      const number = mellinWeights(basis, 1);
      const n = X_GRID.length;
      const integrals = (values: Float64Array, q: number) => {
        const evolution = rotateFlavours(
          FLAVOUR_TO_EVOLUTION,
          values.subarray(q * n * FLAVOURS, (q + 1) * n * FLAVOURS),
        );
        const sum = (weights: Float64Array, flavour: string) =>
          weights.reduce(
            (total, w, i) =>
              total + w * evolution[i * EVOLUTION_BASIS_SIZE + evolutionIndex(flavour as 'V')],
            0,
          );
        return [
          sum(momentum, 'Sigma') + sum(momentum, 'g'),
          sum(number, 'V'),
          sum(number, 'V3'),
          sum(number, 'V15'),
        ];
      };
      const start = integrals(xf, 0);
      let drift = 0;
      for (let q = 0; q < qGrid.length; q++) {
        integrals(evolved, q).forEach((value, k) => {
          drift = Math.max(drift, Math.abs(value - start[k]));
        });
      }
      // measured: 1.8e-5 (LO), 1.9e-5 (NLO), 3.0e-5 (NNLO)
      expect(drift).toBeLessThan(1e-4);
      // the heavy quarks appear: charm above mc
      const charm = FLAVOUR_BASIS.findIndex((member) => member.name === 'C');
      expect(evolved[(6 * n + 10) * FLAVOURS + charm]).toBeGreaterThan(0.01);
    },
  );

  it("should hold evolven3fit's threshold knots: the nf-flavour PDFs at αs(mb) of nf + 1 flavours", () => {
    const theory = card('');
    const xf = toyPdfs(1);
    const n = X_GRID.length;
    const grid = [3, 4.92, 4.92, 10];
    const consistent = evolvePdfs(theory, { xGrid: X_GRID, qGrid: grid }, xf, 1);
    const options = { xGrid: X_GRID, qGrid: grid, thresholdKnots: 'evolven3fit' as const };
    const knots = evolvePdfs(theory, options, xf, 1);
    const atScale = (values: Float64Array, q: number) =>
      values.subarray(q * n * FLAVOURS, (q + 1) * n * FLAVOURS);
    // the scale with αs of 4 flavours equal to αs(mb) of 5: the same truncated solution
    const coupling = strongCouplingOfTheory(theory);
    const target = coupling.alphaS(4.92, 5);
    let [low, high] = [4, 4.92];
    for (let step = 0; step < 60; step++) {
      const middle = (low + high) / 2;
      if (coupling.alphaS(middle, 4) > target) low = middle;
      else high = middle;
    }
    expect(high).toBeLessThan(4.92 - 1e-3);
    const below = evolvePdfs(theory, { xGrid: X_GRID, qGrid: [3, high] }, xf, 1);
    const bottom = FLAVOUR_BASIS.findIndex((member) => member.pid === 5);
    const gluon = FLAVOUR_BASIS.findIndex((member) => member.pid === 21);
    const largest = Math.max(...atScale(below, 1).map(Math.abs));
    let difference = 0;
    for (let i = 0; i < n * FLAVOURS; i++) {
      expect(atScale(knots, 2)[i]).toBe(atScale(knots, 1)[i]);
      expect(atScale(knots, 0)[i]).toBe(atScale(consistent, 0)[i]);
      expect(atScale(knots, 3)[i]).toBe(atScale(consistent, 3)[i]);
      difference = Math.max(difference, Math.abs(atScale(knots, 1)[i] - atScale(below, 1)[i]));
    }
    // the same ODE with other Runge–Kutta steps
    expect(difference).toBeLessThan(1e-6 * largest);
    for (let i = 0; i < n; i++) expect(atScale(knots, 1)[i * FLAVOURS + bottom]).toBe(0);
    // less evolution: the small-x gluon is lower than the consistent first copy's
    const gluonRatio = atScale(knots, 1)[gluon] / atScale(consistent, 1)[gluon];
    expect(gluonRatio).toBeLessThan(1);
    expect(gluonRatio).toBeGreaterThan(0.98);
    // the operator holds the same knots and is cached apart
    const operator = buildEvolutionOperator(theory, options);
    const applied = applyEvolutionOperator(operator, xf, 1);
    for (let i = 0; i < knots.length; i++)
      expect(Math.abs(applied[i] - knots[i])).toBeLessThan(1e-12 * (Math.abs(knots[i]) + 1));
    expect(operator.activeFlavours).toEqual([4, 4, 4, 5]);
    expect(operator.alphaS[1]).toBe(target);
    expect(operatorCacheKey(theory, options)).not.toBe(
      operatorCacheKey(theory, { xGrid: X_GRID, qGrid: grid }),
    );
    expect(() =>
      evolvePdfs(
        theory,
        { ...options, thresholdKnots: 'apfel' as unknown as 'evolven3fit' },
        xf,
        1,
      ),
    ).toThrow(/thresholdKnots: expected one of consistent, evolven3fit, got 'apfel'/);
  });

  it('should agree with the analytic Mellin-space solution at LO', () => {
    // one region of 3 flavours: T3 = u⁺ − d⁺ evolves as M_N(Q) = M_N(Q0)·(a/a0)^(−P0(N)/β0)
    const theory = card('PTO: 0\nModEv: EXA\nQ0: 1.0');
    const qGrid = [1.0, 1.2, 1.5];
    const xf = toyPdfs(1);
    const evolved = evolvePdfs(theory, { xGrid: X_GRID, qGrid }, xf, 1);
    const basis = logLagrangeBasis(X_GRID, 4);
    const n = X_GRID.length;
    const coupling = createStrongCoupling({
      order: 0,
      alphaSRef: 0.118,
      qRef: 91.2,
      thresholds2: [1.51 ** 2, 4.92 ** 2],
      thresholdLogs: [0, 0],
      method: 'exact',
    });
    const beta0 = betaCoefficients(3, 0)[0];
    const t3 = (values: Float64Array, q: number) =>
      rotateFlavours(
        FLAVOUR_TO_EVOLUTION,
        values.subarray(q * n * FLAVOURS, (q + 1) * n * FLAVOURS),
      ).filter((_, index) => index % EVOLUTION_BASIS_SIZE === evolutionIndex('T3'));
    for (const moment of [2, 3, 4]) {
      const weights = mellinWeights(basis, moment);
      const mellin = (values: Float64Array) =>
        values.reduce((total, value, i) => total + weights[i] * value, 0);
      const start = mellin(t3(xf, 0));
      const gamma = kernelMoment(splittingKernels(0, 3).nsPlus, moment);
      for (const q of [1, 2]) {
        const ratio = coupling.alphaS(qGrid[q]) / coupling.alphaS(1.0);
        const expected = start * ratio ** (-gamma / beta0);
        expect(mellin(t3(evolved, q)) / expected - 1).toBeLessThan(1e-5);
        expect(mellin(t3(evolved, q)) / expected - 1).toBeGreaterThan(-1e-5);
      }
    }
  });

  it('should refuse scales below Q0, unordered scales and bad x-grids', () => {
    const theory = card('');
    expect(() => buildEvolutionOperator(theory, { xGrid: X_GRID, qGrid: [1.0] })).toThrow(
      /qGrid: Q\[0\] = 1 GeV is below Q0 = 1.4 GeV/,
    );
    expect(() => buildEvolutionOperator(theory, { xGrid: X_GRID, qGrid: [3, 2] })).toThrow(
      InvalidArgumentError,
    );
    expect(() => buildEvolutionOperator(theory, { xGrid: X_GRID, qGrid: [3, 3] })).toThrow(
      /repeated only at a threshold/,
    );
    expect(() =>
      buildEvolutionOperator(theory, { xGrid: X_GRID.subarray(0, 50), qGrid: [2] }),
    ).toThrow(/last knot to be x = 1/);
    expect(() =>
      evolvePdfs(theory, { xGrid: X_GRID, qGrid: [2] }, new Float64Array(10), 1),
    ).toThrow(/xf: expected shape \[1, 100, 14\]/);
  });

  it('should refuse theory settings it cannot honour, naming the key', () => {
    const problem = (overrides: string) =>
      inputFileError(() => buildEvolutionOperator(card(overrides), { xGrid: X_GRID, qGrid: [2] }));
    expect(problem('IC: 1').key).toBe('IC');
    expect(problem('Q0: 2.0').key).toBe('IC');
    expect(problem('kbThr: 2.0').key).toBe('kbThr');
    expect(problem('MaxNfPdf: 4').key).toBe('MaxNfPdf');
  });
});
