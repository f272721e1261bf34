import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { EVOLUTION_BASIS, evolutionIndex, type EvolutionFlavour } from './evolution-basis.js';
import { FLAVOUR_BASIS, type LhaFlavour } from './flavour-basis.js';
import {
  FIT_BASES,
  FIT_BASIS_NAMES,
  findFitBasis,
  fitBasisFromFlavour,
  fitBasisToEvolution,
  fittedFlavourLabel,
} from './fit-basis.js';
import { multiplyMatrices } from '../linalg/matrix.js';
import { EVOLUTION_TO_FLAVOUR, FLAVOUR_TO_EVOLUTION, rotateFlavours } from './rotations.js';

/** A flavour-basis PDF at one x: arbitrary values, with b = b̄ = t = t̄ = γ = 0. */
function lightPdf(overrides: Partial<Record<LhaFlavour, number>> = {}): Float64Array {
  const values: Partial<Record<LhaFlavour, number>> = {
    UBAR: 0.31,
    DBAR: 0.37,
    SBAR: 0.19,
    CBAR: 0.07,
    GLUON: 2.3,
    D: 0.83,
    U: 1.41,
    S: 0.23,
    C: 0.07,
    ...overrides,
  };
  return Float64Array.from(FLAVOUR_BASIS, (member) => values[member.name as LhaFlavour] ?? 0);
}

/** The fitted values a network would output for `evolution`, in the basis' own flavour names. */
function pick(evolution: Float64Array, names: Record<string, EvolutionFlavour>) {
  return Object.fromEntries(
    Object.entries(names).map(([fitted, flavour]) => [fitted, evolution[evolutionIndex(flavour)]]),
  ) as Record<string, number>;
}

function applyFitBasis(name: string, fitted: Record<string, number>, order?: string[]) {
  const basis = findFitBasis(name)!;
  const flavours = order ?? basis.flavours;
  const rotation = fitBasisToEvolution(basis, flavours);
  return rotateFlavours(
    rotation,
    Float64Array.from(flavours, (flavour) => fitted[flavour]),
  );
}

const EVOL_NAMES: Record<string, EvolutionFlavour> = {
  sng: 'Sigma',
  g: 'g',
  v: 'V',
  v3: 'V3',
  v8: 'V8',
  t3: 'T3',
  t8: 'T8',
  t15: 'T15',
};

describe('fitBasisToEvolution', () => {
  it('should rebuild the full evolution basis of a PDF with symmetric charm from EVOL', () => {
    const evolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, lightPdf());
    const rebuilt = applyFitBasis('EVOL', pick(evolution, EVOL_NAMES));
    rebuilt.forEach((value, i) => {
      expect(value).toBeCloseTo(evolution[i], 14);
    });
  });

  it('should rebuild a PDF with c ≠ c̄ from CCBAR_ASYMM, which fits V15', () => {
    const evolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, lightPdf({ C: 0.09, CBAR: 0.05 }));
    const rebuilt = applyFitBasis('CCBAR_ASYMM', pick(evolution, { ...EVOL_NAMES, v15: 'V15' }));
    rebuilt.forEach((value, i) => {
      expect(value).toBeCloseTo(evolution[i], 14);
    });
  });

  it('should rebuild T15 = Σ − 4c⁺ from NN31IC, which fits c⁺ directly', () => {
    const pdf = lightPdf();
    const evolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, pdf);
    const evolNames = Object.fromEntries(
      Object.entries(EVOL_NAMES).filter(([name]) => name !== 't15'),
    );
    const fitted = { ...pick(evolution, evolNames), cp: 0.07 + 0.07 };
    const rebuilt = applyFitBasis('NN31IC', fitted);
    rebuilt.forEach((value, i) => {
      expect(value).toBeCloseTo(evolution[i], 14);
    });
  });

  it('should rebuild the evolution basis from FLAVOUR (u, ū, d, d̄, s, s̄, c = c̄, g)', () => {
    const pdf = lightPdf();
    const evolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, pdf);
    const fitted = {
      u: 1.41,
      ubar: 0.31,
      d: 0.83,
      dbar: 0.37,
      s: 0.23,
      sbar: 0.19,
      c: 0.07,
      g: 2.3,
    };
    const rebuilt = applyFitBasis('FLAVOUR', fitted);
    rebuilt.forEach((value, i) => {
      expect(value).toBeCloseTo(evolution[i], 14);
    });
  });

  it('should write EVOL as the hand-derived matrix: V15 = V24 = V35 = V, T24 = T35 = Σ, γ = 0', () => {
    const rotation = fitBasisToEvolution(FIT_BASES.EVOL);
    const row = (flavour: EvolutionFlavour) =>
      Array.from(
        rotation.data.subarray(evolutionIndex(flavour) * 8, evolutionIndex(flavour) * 8 + 8),
      );
    // columns: sng, g, v, v3, v8, t3, t8, t15
    expect(row('photon')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(row('V35')).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    expect(row('T15')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(row('T24')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(rotation.rows).toBe(EVOLUTION_BASIS.length);
  });

  it('should follow the runcard order of the fitted flavours', () => {
    const order = ['t15', 'g', 'sng', 'v', 'v3', 'v8', 't3', 't8'];
    const fitted = { sng: 3, g: 5, v: 7, v3: 11, v8: 13, t3: 17, t8: 19, t15: 23 };
    expect(Array.from(applyFitBasis('EVOL', fitted, order))).toEqual(
      Array.from(applyFitBasis('EVOL', fitted)),
    );
  });

  it('should name the unknown, repeated and missing flavours of a bad basis list', () => {
    const order = ['sng', 'g', 'v', 'v3', 'v8', 't3', 't3', 'cp'];
    expect(() => fitBasisToEvolution(FIT_BASES.EVOL, order)).toThrow(InvalidArgumentError);
    expect(() => fitBasisToEvolution(FIT_BASES.EVOL, order)).toThrow(
      'fit basis EVOL: fits sng, g, v, v3, v8, t3, t8, t15; unknown flavour(s) cp; repeated flavour(s) t3; missing flavour(s) t8, t15',
    );
  });

  it('should find bases by upstream name and alias, and not others', () => {
    expect(findFitBasis('evolution')?.name).toBe('EVOL');
    expect(findFitBasis('CCBAR_ASYMM')?.flavours).toHaveLength(9);
    expect(findFitBasis('EVOLS')).toBeUndefined();
  });
});

describe('fitBasisFromFlavour', () => {
  it('should read back the fitted flavours of every basis: from ∘ (to LHA) ∘ to = identity', () => {
    for (const name of FIT_BASIS_NAMES) {
      const basis = FIT_BASES[name];
      const order = [...basis.flavours].reverse();
      const roundTrip = multiplyMatrices(
        fitBasisFromFlavour(basis, order),
        multiplyMatrices(EVOLUTION_TO_FLAVOUR, fitBasisToEvolution(basis, order)),
      );
      expect(roundTrip.rows).toBe(order.length);
      roundTrip.data.forEach((value, i) => {
        const diagonal = Math.floor(i / order.length) === i % order.length;
        expect(value).toBeCloseTo(diagonal ? 1 : 0, 14);
      });
    }
  });

  it('should give c⁺ = c + c̄ for NN31IC and the partons themselves for FLAVOUR', () => {
    const pdf = lightPdf({ C: 0.11, CBAR: 0.05 });
    const nn31ic = rotateFlavours(fitBasisFromFlavour(FIT_BASES.NN31IC), pdf);
    expect(nn31ic[FIT_BASES.NN31IC.flavours.indexOf('cp')]).toBeCloseTo(0.16, 15);
    const evolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, pdf);
    expect(nn31ic[0]).toBe(evolution[evolutionIndex('Sigma')]);
    const flavour = rotateFlavours(fitBasisFromFlavour(FIT_BASES.FLAVOUR), pdf);
    expect(Array.from(flavour)).toEqual([1.41, 0.31, 0.83, 0.37, 0.23, 0.19, 0.11, 2.3]);
  });

  it('should label the fitted flavours for people', () => {
    const labels = ['sng', 'g', 'v3', 't15', 'cp', 'ubar', 'c', 'other'].map(fittedFlavourLabel);
    expect(labels).toEqual(['Σ', 'g', 'V3', 'T15', 'c⁺', 'ū', 'c', 'other']);
  });
});
