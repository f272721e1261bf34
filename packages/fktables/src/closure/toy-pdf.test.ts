import {
  EVOLUTION_BASIS,
  FLAVOUR_BASIS,
  InvalidArgumentError,
  evolutionIndex,
  type EvolutionFlavour,
  type LhaFlavour,
} from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { TOY_PDF_Q0, toyPdfFlavourXf, toyPdfXf } from './toy-pdf.js';

const X = Float64Array.from([1e-5, 1e-3, 0.1, 0.5, 0.9]);

/** The published parametrisation (hep-ph/0204316), written out independently. */
function published(x: number) {
  const uv = 5.1072 * Math.pow(x, 0.8) * Math.pow(1 - x, 3);
  const dv = 3.06432 * Math.pow(x, 0.8) * Math.pow(1 - x, 4);
  const g = 1.7 * Math.pow(x, -0.1) * Math.pow(1 - x, 5);
  const dbar = 0.1939875 * Math.pow(x, -0.1) * Math.pow(1 - x, 6);
  const ubar = (1 - x) * dbar;
  const s = 0.2 * (ubar + dbar);
  return { uv, dv, g, dbar, ubar, s };
}

function flavour(xf: Float64Array, point: number, name: LhaFlavour): number {
  return xf[point * 14 + FLAVOUR_BASIS.findIndex((member) => member.name === name)];
}

function evolution(xf: Float64Array, point: number, name: EvolutionFlavour): number {
  return xf[point * 14 + evolutionIndex(name)];
}

/**
 * ∫₀¹ h(x) dx by the midpoint rule in t with x = t¹⁰: the toy PDF's x^−0.1 and x^0.8 become
 * powers of t, so the integrand is a polynomial in t and the rule converges fast.
 */
function integrate(h: (x: number, xf: Float64Array) => number): number {
  const steps = 20_000;
  const t = Float64Array.from({ length: steps }, (_, i) => (i + 0.5) / steps);
  const x = t.map((value) => value ** 10);
  const xf = toyPdfFlavourXf(x);
  let sum = 0;
  x.forEach((value, i) => {
    sum += h(value, xf.subarray(i * 14, i * 14 + 14)) * 10 * t[i] ** 9;
  });
  return sum / steps;
}

describe('toyPdfFlavourXf', () => {
  it('should give the published Les Houches toy parametrisation at Q0² = 2 GeV²', () => {
    expect(TOY_PDF_Q0 ** 2).toBeCloseTo(2, 14);
    const xf = toyPdfFlavourXf(X);
    X.forEach((x, n) => {
      const { uv, dv, g, dbar, ubar, s } = published(x);
      expect(flavour(xf, n, 'U')).toBeCloseTo(uv + ubar, 13);
      expect(flavour(xf, n, 'UBAR')).toBeCloseTo(ubar, 13);
      expect(flavour(xf, n, 'D')).toBeCloseTo(dv + dbar, 13);
      expect(flavour(xf, n, 'DBAR')).toBeCloseTo(dbar, 13);
      expect(flavour(xf, n, 'S')).toBeCloseTo(s, 13);
      expect(flavour(xf, n, 'SBAR')).toBeCloseTo(s, 13);
      expect(flavour(xf, n, 'GLUON')).toBeCloseTo(g, 13);
      for (const heavy of ['C', 'CBAR', 'B', 'BBAR', 'T', 'TBAR', 'PHT'] as const) {
        expect(flavour(xf, n, heavy)).toBe(0);
      }
    });
  });

  it('should satisfy the valence sum rules ∫u_v = 2, ∫d_v = 1, ∫(s − s̄) = 0', () => {
    const at = (xf: Float64Array, name: LhaFlavour) =>
      xf[FLAVOUR_BASIS.findIndex((member) => member.name === name)];
    const upValence = integrate((x, xf) => (at(xf, 'U') - at(xf, 'UBAR')) / x);
    const downValence = integrate((x, xf) => (at(xf, 'D') - at(xf, 'DBAR')) / x);
    const strangeValence = integrate((x, xf) => (at(xf, 'S') - at(xf, 'SBAR')) / x);
    expect(upValence).toBeCloseTo(2, 10);
    expect(downValence).toBeCloseTo(1, 10);
    expect(strangeValence).toBe(0);
  });

  it('should carry the proton momentum, ∫x(Σ + g) = 1 to the published rounding (2·10⁻⁸)', () => {
    const momentum = integrate((_, xf) => xf.reduce((sum, value) => sum + value, 0));
    expect(Math.abs(momentum - 1)).toBeLessThan(3e-8);
    // The same integral from Euler Beta functions: 0.9999999780239723.
    expect(momentum).toBeCloseTo(0.9999999780239723, 12);
  });

  it('should reject x outside (0, 1]', () => {
    expect(() => toyPdfFlavourXf(Float64Array.from([0.5, 0]))).toThrow(InvalidArgumentError);
    expect(() => toyPdfFlavourXf(Float64Array.from([1.5]))).toThrow(
      'xGrid: x = 1.5 at position 0 is outside (0, 1]',
    );
    expect(() => toyPdfXf(Float64Array.from([Number.NaN]))).toThrow(InvalidArgumentError);
  });
});

describe('toyPdfXf', () => {
  it('should give the evolution basis of the toy PDF (as APFEL writes it for toyLH)', () => {
    const xf = toyPdfXf(X);
    X.forEach((x, n) => {
      const { uv, dv, g, dbar, ubar, s } = published(x);
      const sigma = uv + dv + 2 * ubar + 2 * dbar + 2 * s;
      const expected: Partial<Record<EvolutionFlavour, number>> = {
        photon: 0,
        Sigma: sigma,
        g,
        V: uv + dv,
        V3: uv - dv,
        V8: uv + dv,
        V15: uv + dv,
        V24: uv + dv,
        V35: uv + dv,
        T3: uv + 2 * ubar - dv - 2 * dbar,
        T8: uv + 2 * ubar + dv + 2 * dbar - 4 * s,
        T15: sigma,
        T24: sigma,
        T35: sigma,
      };
      for (const member of EVOLUTION_BASIS) {
        const name = member.name as EvolutionFlavour;
        expect(evolution(xf, n, name)).toBeCloseTo(expected[name]!, 13);
      }
    });
  });
});
