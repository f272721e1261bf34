import {
  FLAVOUR_BASIS,
  gaussLegendre,
  InvalidArgumentError,
  type LhaFlavour,
} from '@partonfit/core';
import {
  buildEvolutionOperator,
  embeddedTheoryCard,
  evolvePdfs,
  TOY_LH_LO_THEORY,
} from '@partonfit/evolution';
import { describe, expect, it } from 'vitest';
import { predictFkTable } from '../fktable/predict.js';
import { closureXGrid } from './closure-datasets.js';
import {
  closureDatasetsAtScale,
  evolvedLoFkTable,
  SCALE_VARIED_CLOSURE_SPECS,
  scaleVariedClosureKinematics,
  type ScaleVariedClosureDataset,
} from './scale-varied-closure.js';
import { F2_PROTON } from './lo-dis.js';
import { TOY_PDF_Q0, toyPdfFlavourXf, toyPdfXf } from './toy-pdf.js';
import { interpolationWeights } from './x-interpolation.js';

const FLAVOURS = FLAVOUR_BASIS.length;
const CARD = embeddedTheoryCard(TOY_LH_LO_THEORY)!;
const X_GRID = closureXGrid();
/** The evolution's x-grid: the closure grid and x = 1, where x·f = 0. */
const EVOLUTION_X_GRID = Float64Array.from([...X_GRID, 1]);

/**
 * The table and the direct evolution take the same steps, so they differ by rounding only
 * (measured: 1.4e-15 of the dataset's largest value).
 */
const SAME_EVOLUTION_TOLERANCE = 1e-12;

/**
 * ΔF2 from the tables against Simpson's rule over the DGLAP slope (measured: 3.9e-7 relative;
 * the evolution's Runge–Kutta steps and x-interpolation against the test's quadrature).
 */
const DGLAP_SHIFT_TOLERANCE = 1e-5;

const CENTRAL = closureDatasetsAtScale({ factorisationScaleRatio: 1 });
const DOUBLED = closureDatasetsAtScale({ factorisationScaleRatio: 2 });
const HALVED = closureDatasetsAtScale({ factorisationScaleRatio: 0.5 });

function byName(datasets: readonly ScaleVariedClosureDataset[], name: string) {
  return datasets.filter((dataset) => dataset.name === name)[0];
}

/** The toy PDF at Q0 on the evolution's grid, (x, flavour), zero at x = 1. */
function toyOnEvolutionGrid(): Float64Array {
  const xf = new Float64Array(EVOLUTION_X_GRID.length * FLAVOURS);
  xf.set(toyPdfFlavourXf(X_GRID));
  return xf;
}

/** The toy PDF evolved directly to each scale, (q, x, flavour) on the evolution's grid. */
function evolvedToy(qGrid: readonly number[]): Float64Array {
  return evolvePdfs(CARD, { xGrid: EVOLUTION_X_GRID, qGrid }, toyOnEvolutionGrid(), 1);
}

/** Interpolates values at the closure nodes, (x) or a strided column of them, at x. */
function interpolate(values: (node: number) => number, x: number): number {
  const { start, weights } = interpolationWeights(X_GRID, x);
  return weights.reduce((sum, weight, k) => sum + weight * values(start + k), 0);
}

const position = (name: LhaFlavour) => FLAVOUR_BASIS.findIndex((member) => member.name === name);

/** The LO formulas of the four datasets, written out here independently of `lo-dis.ts`. */
const LO_FORMULAS: Record<string, (xf: (flavour: LhaFlavour) => number) => number> = {
  CLOSURE_F2P_Q: (f) =>
    (4 / 9) * (f('U') + f('UBAR') + f('C') + f('CBAR')) +
    (1 / 9) * (f('D') + f('DBAR') + f('S') + f('SBAR')),
  CLOSURE_F2D_Q: (f) =>
    (5 / 18) * (f('U') + f('UBAR') + f('D') + f('DBAR')) +
    (1 / 9) * (f('S') + f('SBAR')) +
    (4 / 9) * (f('C') + f('CBAR')),
  CLOSURE_NU_F2_Q: (f) => 2 * (f('D') + f('S') + f('UBAR') + f('CBAR')),
  CLOSURE_NU_XF3_Q: (f) => 2 * (f('D') + f('S') - f('UBAR') - f('CBAR')),
};

/**
 * The LO formula of each dataset applied to the toy PDF evolved directly (`evolvePdfs`) to each
 * point's μF and interpolated to its x. The evolution runs through the μF of all the datasets,
 * as their operator does, so that both take the same Runge–Kutta steps.
 */
function directPredictions(datasets: readonly ScaleVariedClosureDataset[]): Float64Array[] {
  const scales = [...new Set(datasets.flatMap((dataset) => [...dataset.factorisationScale]))].sort(
    (a, b) => a - b,
  );
  const evolved = evolvedToy(scales);
  const nodes = EVOLUTION_X_GRID.length;
  return datasets.map((dataset) =>
    Float64Array.from(dataset.kinematics.x, (x, n) => {
      const q = scales.indexOf(dataset.factorisationScale[n]);
      const at = (flavour: LhaFlavour) =>
        interpolate((node) => evolved[(q * nodes + node) * FLAVOURS + position(flavour)], x);
      return LO_FORMULAS[dataset.name](at);
    }),
  );
}

/**
 * αs at LO from the Les Houches benchmark's αs(√2 GeV) = 0.35 with 4 flavours, 5 above
 * mb = 4.5 GeV (continuous there at LO): the exact solution 1/αs(μ) = 1/αs(μ0) + β0/(4π)·ln(μ²/μ0²),
 * β0 = 11 − 2nf/3.
 */
function alphaS(mu: number): number {
  const run = (alpha: number, from2: number, to2: number, nf: number) =>
    1 / (1 / alpha + ((11 - (2 * nf) / 3) / (4 * Math.PI)) * Math.log(to2 / from2));
  const mb2 = 4.5 ** 2;
  if (mu * mu <= mb2) return run(0.35, 2, mu * mu, 4);
  return run(run(0.35, 2, mb2, 4), mb2, mu * mu, 5);
}

const CF = 4 / 3;
const TR = 1 / 2;
/** Σ e_q² over u, d, s, c. */
const CHARGES_SQUARED = 2 * (4 / 9) + 2 * (1 / 9);

/**
 * ∫ dz kernel(z, F(x/z)) over x/z from x to the grid's end 0.9 (x·f above 0.9 is below 10⁻³ of
 * its value at small x and is left out), in y = x/z with 8-point Gauss–Legendre panels between
 * the closure nodes, where the interpolated F is smooth.
 */
function convolve(
  x: number,
  values: (node: number) => number,
  kernel: (z: number, fAtY: number) => number,
): number {
  const breaks = [x, ...X_GRID.filter((node) => node > x)];
  let total = 0;
  for (let a = 0; a + 1 < breaks.length; a++) {
    const { nodes, weights } = gaussLegendre(8, breaks[a], breaks[a + 1]);
    nodes.forEach((y, k) => {
      total += weights[k] * kernel(x / y, interpolate(values, y)) * (x / (y * y));
    });
  }
  return total;
}

/**
 * dF2ᵖ/d ln μ² at LO from the DGLAP equation written out here: for each quark and antiquark
 * d(x·q)/dt = αs/(2π)·[P_qq ⊗ x·q + P_qg ⊗ x·g], so
 * dF2/dt = αs/(2π)·[P_qq ⊗ F2 + 2·Σe_q²·P_qg ⊗ x·g], with P_qq = C_F[(1 + z²)/(1 − z)]₊,
 * P_qg = T_R[z² + (1 − z)²] and (P ⊗ F)(x) = ∫_x^1 dz P(z)·F(x/z).
 */
function f2Slope(
  x: number,
  mu: number,
  f2: (node: number) => number,
  gluon: (node: number) => number,
): number {
  const f2AtX = interpolate(f2, x);
  const splitting = (z: number) => (1 + z * z) / (1 - z);
  const zCut = x / X_GRID[X_GRID.length - 1];
  // ∫_0^zCut (1 + z²)/(1 − z) dz: the subtraction of the plus prescription below the integral's range
  const below = -zCut - (zCut * zCut) / 2 - 2 * Math.log1p(-zCut);
  const quark = CF * (convolve(x, f2, (z, fAtY) => splitting(z) * (fAtY - f2AtX)) - f2AtX * below);
  const fromGluon =
    2 * CHARGES_SQUARED * TR * convolve(x, gluon, (z, gAtY) => (z * z + (1 - z) ** 2) * gAtY);
  return (alphaS(mu) / (2 * Math.PI)) * (quark + fromGluon);
}

describe('scale-varied closure kinematics', () => {
  it('should spread 76 points over x in [1e-3, 0.7] and Q² in [10, 1000] GeV² within y ≤ 0.9, W² ≥ 15 GeV²', () => {
    expect(
      SCALE_VARIED_CLOSURE_SPECS.map(({ name, points, process }) => [name, points, process]),
    ).toEqual([
      ['CLOSURE_F2P_Q', 24, 'DIS NC'],
      ['CLOSURE_F2D_Q', 20, 'DIS NC'],
      ['CLOSURE_NU_F2_Q', 16, 'DIS CC'],
      ['CLOSURE_NU_XF3_Q', 16, 'DIS CC'],
    ]);
    for (const { points } of SCALE_VARIED_CLOSURE_SPECS) {
      const { x, q2, y } = scaleVariedClosureKinematics(points);
      expect(x[0]).toBeCloseTo(1e-3, 15);
      expect(x[points - 1]).toBeCloseTo(0.7, 15);
      expect(Math.min(...q2)).toBeCloseTo(10, 12);
      expect(Math.max(...q2)).toBeGreaterThan(600);
      x.forEach((xn, n) => {
        expect(q2[n]).toBeGreaterThanOrEqual(10 - 1e-12);
        expect(q2[n]).toBeLessThanOrEqual(1000 + 1e-9);
        expect(y[n]).toBeCloseTo(q2[n] / (xn * 318 ** 2), 15);
        expect(y[n]).toBeLessThanOrEqual(0.9 + 1e-12);
        expect((q2[n] * (1 - xn)) / xn).toBeGreaterThanOrEqual(15 - 1e-9);
      });
    }
  });

  it('should give each region of x low and high Q²: every fourth point at the top of its range', () => {
    const { x, q2 } = scaleVariedClosureKinematics(24);
    // at small x the top is y = 0.9: Q² = 0.9·x·318² (244 GeV² at x = 2.7e-3)
    expect(q2[0]).toBe(10);
    expect(q2[3]).toBeCloseTo(0.9 * x[3] * 318 ** 2, 9);
    expect(q2[4]).toBe(10);
    expect(q2[1]).toBeGreaterThan(q2[0]);
    expect(q2[2]).toBeGreaterThan(q2[1]);
    expect(q2[23]).toBeCloseTo(1000, 9);
  });
});

describe('closureDatasetsAtScale', () => {
  it('should give every dataset a table from x·f at Q0 on the closure x-grid', () => {
    for (const dataset of [...CENTRAL, ...DOUBLED, ...HALVED]) {
      const { fkTable } = dataset;
      expect(fkTable.name).toBe(dataset.name);
      expect(fkTable.file).toBe('<generated>');
      expect(fkTable.q0).toBe(TOY_PDF_Q0);
      expect(Array.from(fkTable.xGrid)).toEqual(Array.from(X_GRID));
      expect(fkTable.ndata).toBe(dataset.kinematics.x.length);
      expect(fkTable.values.length).toBe(fkTable.ndata * fkTable.channels.length * X_GRID.length);
      expect(fkTable.values.every(Number.isFinite)).toBe(true);
    }
  });

  it('should take F2ᵖ from Σ, g, T3, T8 and T15 at Q0, and ν p xF3 from V, T3, T8 and T15', () => {
    // evolution-basis indices: Σ 1, g 2, V 3, T3 9, T8 10, T15 11
    expect(byName(CENTRAL, 'CLOSURE_F2P_Q').fkTable.channels).toEqual([1, 2, 9, 10, 11]);
    expect(byName(CENTRAL, 'CLOSURE_NU_XF3_Q').fkTable.channels).toEqual([3, 9, 10, 11]);
  });

  it.each([
    ['1', CENTRAL],
    ['2', DOUBLED],
    ['1/2', HALVED],
  ])(
    'should predict at kF = %s what the toy PDF evolved directly to μF = kF·Q gives',
    (_, datasets) => {
      const predictions = directPredictions(datasets);
      datasets.forEach((dataset, d) => {
        const direct = predictions[d];
        const largest = Math.max(...direct.map(Math.abs));
        dataset.toyPredictionsAtScale.forEach((prediction, n) => {
          expect(
            Math.abs(prediction - direct[n]) / largest,
            `${dataset.name} point ${n}`,
          ).toBeLessThan(SAME_EVOLUTION_TOLERANCE);
        });
      });
    },
  );

  it('should evaluate the tables at μF = kF·Q, at kF = 1/2 never below Q0', () => {
    for (const [datasets, ratio] of [
      [CENTRAL, 1],
      [DOUBLED, 2],
      [HALVED, 0.5],
    ] as const) {
      for (const dataset of datasets) {
        expect(dataset.factorisationScaleRatio).toBe(ratio);
        dataset.factorisationScale.forEach((mu, n) => {
          expect(mu).toBeCloseTo(ratio * Math.sqrt(dataset.kinematics.q2[n]), 12);
          expect(mu).toBeGreaterThanOrEqual(TOY_PDF_Q0);
        });
      }
    }
    const lowest = Math.min(...HALVED.flatMap((dataset) => [...dataset.factorisationScale]));
    expect(lowest).toBeCloseTo(Math.sqrt(10) / 2, 12); // 1.58 GeV > √2 GeV
  });

  it('should raise F2ᵖ at the smallest x by ΔF2 = ∫ dF2/d ln μ² from μF = Q to 2Q, computed from the DGLAP equation', () => {
    const central = byName(CENTRAL, 'CLOSURE_F2P_Q');
    const doubled = byName(DOUBLED, 'CLOSURE_F2P_Q');
    const x = central.kinematics.x[0];
    expect([x, central.kinematics.q2[0]]).toEqual([1e-3, 10]);
    const q = Math.sqrt(10);
    // Simpson's rule over t = ln μ² in 8 panels: μ_k = Q·2^(k/8)
    const panels = 8;
    const scales = Array.from({ length: panels + 1 }, (_, k) => q * 2 ** (k / panels));
    const evolved = evolvedToy(scales);
    const nodes = EVOLUTION_X_GRID.length;
    const slopes = scales.map((mu, k) => {
      const at = (node: number, name: LhaFlavour) =>
        evolved[(k * nodes + node) * FLAVOURS + position(name)];
      const f2 = (node: number) => LO_FORMULAS.CLOSURE_F2P_Q((name) => at(node, name));
      return f2Slope(x, mu, f2, (node) => at(node, 'GLUON'));
    });
    const step = Math.log(4) / panels;
    const expected =
      (step / 3) *
      slopes.reduce(
        (sum, slope, k) => sum + slope * (k === 0 || k === panels ? 1 : k % 2 === 1 ? 4 : 2),
        0,
      );
    const shift = doubled.toyPredictionsAtScale[0] - central.toyPredictionsAtScale[0];
    expect(shift).toBeGreaterThan(0);
    expect(shift / central.toyPredictionsAtScale[0]).toBeCloseTo(0.429, 3); // +43 %
    expect(Math.abs(shift / expected - 1)).toBeLessThan(DGLAP_SHIFT_TOLERANCE);
  });

  it('should lower F2ᵖ and F2ᵈ at the largest x when μF doubles, and raise both when it halves at small x', () => {
    for (const name of ['CLOSURE_F2P_Q', 'CLOSURE_F2D_Q']) {
      const [central, doubled, halved] = [CENTRAL, DOUBLED, HALVED].map(
        (datasets) => byName(datasets, name).toyPredictionsAtScale,
      );
      const last = central.length - 1;
      expect(doubled[last]).toBeLessThan(central[last]);
      expect(halved[last]).toBeGreaterThan(central[last]);
      expect(doubled[0]).toBeGreaterThan(central[0]);
      expect(halved[0]).toBeLessThan(central[0]);
    }
  });

  it('should have the same data and covariance at every kF: the kF = 1 predictions of the toy PDF', () => {
    CENTRAL.forEach((central, d) => {
      for (const varied of [DOUBLED[d], HALVED[d]]) {
        expect(Array.from(varied.data)).toEqual(Array.from(central.data));
        expect(Array.from(varied.covariance.data)).toEqual(Array.from(central.covariance.data));
        expect(Array.from(varied.toyPredictions)).toEqual(Array.from(central.toyPredictions));
      }
      expect(Array.from(central.data)).toEqual(Array.from(central.toyPredictions));
      expect(Array.from(central.toyPredictionsAtScale)).toEqual(Array.from(central.toyPredictions));
    });
    const level1 = closureDatasetsAtScale({ factorisationScaleRatio: 2, level: 1, seed: 5 });
    const level1Central = closureDatasetsAtScale({ factorisationScaleRatio: 1, level: 1, seed: 5 });
    level1.forEach((dataset, d) => {
      expect(Array.from(dataset.data)).toEqual(Array.from(level1Central[d].data));
      expect(Array.from(dataset.data)).not.toEqual(Array.from(dataset.toyPredictions));
    });
  });

  it('should take the uncertainties of the Q0 closure data: xF3 with 3 % of the F2 of the same beam', () => {
    const xf3 = byName(CENTRAL, 'CLOSURE_NU_XF3_Q');
    const f2 = byName(CENTRAL, 'CLOSURE_NU_F2_Q');
    expect(Array.from(f2.kinematics.q2)).toEqual(Array.from(xf3.kinematics.q2));
    const n = xf3.data.length;
    xf3.toyPredictions.forEach((value, i) => {
      const diagonal = xf3.covariance.data[i * n + i];
      expect(diagonal).toBeCloseTo((0.02 * value) ** 2 + (0.03 * f2.toyPredictions[i]) ** 2, 12);
    });
    const f2p = byName(CENTRAL, 'CLOSURE_F2P_Q');
    const m = f2p.data.length;
    expect(f2p.covariance.data[1]).toBeCloseTo(0.015 ** 2 * f2p.data[0] * f2p.data[1], 14);
    expect(f2p.covariance.data[m + 1]).toBeCloseTo((0.015 ** 2 + 0.02 ** 2) * f2p.data[1] ** 2, 14);
  });

  it("should return copies: changing one call's table leaves the next call's alone", () => {
    const first = closureDatasetsAtScale({ factorisationScaleRatio: 2 });
    first[0].fkTable.values.fill(0);
    const second = closureDatasetsAtScale({ factorisationScaleRatio: 2 });
    expect(Array.from(second[0].toyPredictionsAtScale)).toEqual(
      Array.from(DOUBLED[0].toyPredictionsAtScale),
    );
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    'should refuse kF = %s with an InvalidArgumentError',
    (ratio) => {
      expect(() => closureDatasetsAtScale({ factorisationScaleRatio: ratio })).toThrow(
        InvalidArgumentError,
      );
      expect(() => closureDatasetsAtScale({ factorisationScaleRatio: ratio })).toThrow(
        `factorisationScaleRatio: expected a positive number, got ${ratio}`,
      );
    },
  );

  it('should refuse a kF that puts μF below Q0, naming the point and the smallest ratio', () => {
    let caught: unknown;
    try {
      closureDatasetsAtScale({ factorisationScaleRatio: 0.4 });
    } catch (error) {
      caught = error;
    }
    expect(InvalidArgumentError.isInstance(caught)).toBe(true);
    expect((caught as InvalidArgumentError).argument).toBe('factorisationScaleRatio');
    expect((caught as InvalidArgumentError).message).toMatch(
      /^factorisationScaleRatio: 0\.4 puts μF = kF·Q = 1\.26\d* GeV of CLOSURE_F2P_Q point 0 \(Q² = 10 GeV²\) below Q0 = 1\.414\d* GeV, where the evolution cannot go; the smallest ratio is 0\.447\d*$/,
    );
  });

  it('should refuse a level other than 0 or 1 as closureDatasets does', () => {
    expect(() => closureDatasetsAtScale({ factorisationScaleRatio: 1, level: 2 as 0 })).toThrow(
      'level: expected 0 or 1, got 2',
    );
  });
});

describe('evolvedLoFkTable', () => {
  const x = Float64Array.of(0.01, 0.1);
  const factorisationScale = Float64Array.of(3, 5);
  const operator = buildEvolutionOperator(CARD, { xGrid: EVOLUTION_X_GRID, qGrid: [3, 5] });

  it('should predict F2ᵖ of the evolved toy PDF at each point', () => {
    const table = evolvedLoFkTable({
      name: 'F2P',
      combination: F2_PROTON,
      x,
      factorisationScale,
      xGrid: X_GRID,
      operator,
    });
    const direct = evolvedToy([3, 5]);
    const nodes = EVOLUTION_X_GRID.length;
    const predictions = predictFkTable(table, toyPdfXf(X_GRID));
    x.forEach((xn, n) => {
      const at = (flavour: LhaFlavour) =>
        interpolate((node) => direct[(n * nodes + node) * FLAVOURS + position(flavour)], xn);
      expect(Math.abs(predictions[n] / LO_FORMULAS.CLOSURE_F2P_Q(at) - 1)).toBeLessThan(
        SAME_EVOLUTION_TOLERANCE,
      );
    });
  });

  it('should refuse an operator on another x-grid, a μF not in its Q grid, and lengths that differ', () => {
    const options = {
      name: 'F2P',
      combination: F2_PROTON,
      x,
      factorisationScale,
      xGrid: X_GRID,
      operator,
    };
    expect(() => evolvedLoFkTable({ ...options, xGrid: X_GRID.slice(1) })).toThrow(
      'operator of F2P: its x-grid (51 nodes) is not the table',
    );
    expect(() =>
      evolvedLoFkTable({ ...options, factorisationScale: Float64Array.of(3, 4) }),
    ).toThrow("factorisationScale of F2P: point 1 (μF = 4 GeV) is not in the operator's Q grid");
    expect(() => evolvedLoFkTable({ ...options, factorisationScale: Float64Array.of(3) })).toThrow(
      'factorisationScale of F2P: has 1 scales for 2 points',
    );
    expect(() => evolvedLoFkTable({ ...options, combination: {} })).toThrow(
      'combination of F2P: is zero',
    );
    expect(() => evolvedLoFkTable({ ...options, combination: { U: Number.NaN } })).toThrow(
      'combination of F2P: has a coefficient that is not a finite number',
    );
  });
});
