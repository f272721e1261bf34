import { describe, expect, it } from 'vitest';
import { identityMatrix, maxAbsDifference, multiplyMatrices } from '../linalg/matrix.js';
import { EVOLUTION_BASIS, evolutionIndex, type EvolutionFlavour } from './evolution-basis.js';
import { FLAVOUR_BASIS, flavourIndexOfPid, type LhaFlavour } from './flavour-basis.js';
import {
  EVOLUTION_TO_FLAVOUR,
  evolutionToFlavourAt,
  FLAVOUR_TO_EVOLUTION,
  rotateFlavours,
} from './rotations.js';

/** An LHA-basis vector with the given partons set to the given values. */
function lha(partons: Partial<Record<LhaFlavour, number>>): Float64Array {
  const values = new Float64Array(14);
  for (const [name, value] of Object.entries(partons)) {
    values[FLAVOUR_BASIS.findIndex((member) => member.name === name)] = value;
  }
  return values;
}

/** The evolution-basis vector as a record, for readable comparisons. */
function byName(evolution: Float64Array): Record<EvolutionFlavour, number> {
  return Object.fromEntries(
    EVOLUTION_BASIS.map((member, i) => [member.name, evolution[i]]),
  ) as Record<EvolutionFlavour, number>;
}

describe('flavour bases', () => {
  it('should list the 14 evolution flavours in FK-table order', () => {
    expect(EVOLUTION_BASIS.map((member) => member.label)).toEqual([
      'γ',
      'Σ',
      'g',
      'V',
      'V3',
      'V8',
      'V15',
      'V24',
      'V35',
      'T3',
      'T8',
      'T15',
      'T24',
      'T35',
    ]);
    expect(evolutionIndex('T15')).toBe(11);
  });

  it('should list the LHA flavours with exportgrid labels and PDG ids', () => {
    expect(FLAVOUR_BASIS.map((member) => member.name)).toEqual([
      'TBAR',
      'BBAR',
      'CBAR',
      'SBAR',
      'UBAR',
      'DBAR',
      'GLUON',
      'D',
      'U',
      'S',
      'C',
      'B',
      'T',
      'PHT',
    ]);
    expect(FLAVOUR_BASIS.map((member) => member.pid)).toEqual([
      -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6, 22,
    ]);
    expect(flavourIndexOfPid(21)).toBe(6);
    expect(flavourIndexOfPid(7)).toBe(-1);
  });
});

describe('FLAVOUR_TO_EVOLUTION', () => {
  const rotate = (partons: Partial<Record<LhaFlavour, number>>) =>
    byName(rotateFlavours(FLAVOUR_TO_EVOLUTION, lha(partons)));

  it('should put a lone up quark into every singlet and valence combination with weight 1', () => {
    expect(rotate({ U: 1 })).toEqual({
      photon: 0,
      Sigma: 1,
      g: 0,
      V: 1,
      V3: 1,
      V8: 1,
      V15: 1,
      V24: 1,
      V35: 1,
      T3: 1,
      T8: 1,
      T15: 1,
      T24: 1,
      T35: 1,
    });
  });

  it('should weight d, s, c, b, t by −1, −2, −3, −4, −5 in T3, T8, T15, T24, T35', () => {
    expect(rotate({ D: 1 })).toMatchObject({ T3: -1, T8: 1, T15: 1, V3: -1, V8: 1 });
    expect(rotate({ S: 1 })).toMatchObject({ T3: 0, T8: -2, T15: 1, V8: -2, V15: 1 });
    expect(rotate({ C: 1 })).toMatchObject({ T8: 0, T15: -3, T24: 1, V15: -3 });
    expect(rotate({ B: 1 })).toMatchObject({ T15: 0, T24: -4, T35: 1, V24: -4 });
    expect(rotate({ T: 1 })).toMatchObject({ T24: 0, T35: -5, V35: -5 });
  });

  it('should give antiquarks the same T and opposite V as their quarks', () => {
    expect(rotate({ UBAR: 1 })).toMatchObject({ Sigma: 1, V: -1, T3: 1, V3: -1, T35: 1, V35: -1 });
    expect(rotate({ SBAR: 1 })).toMatchObject({ T8: -2, V8: 2 });
  });

  it('should map the gluon and the photon to themselves', () => {
    expect(rotate({ GLUON: 2.5, PHT: 0.25 })).toMatchObject({ g: 2.5, photon: 0.25, Sigma: 0 });
  });

  it('should count a proton-like valence content u_v = 2, d_v = 1 as V = 3, V3 = 1, V8 = 3', () => {
    expect(rotate({ U: 2, D: 1 })).toMatchObject({ V: 3, V3: 1, V8: 3, V15: 3, V24: 3, V35: 3 });
  });
});

describe('EVOLUTION_TO_FLAVOUR', () => {
  it('should be the inverse of FLAVOUR_TO_EVOLUTION on both sides', () => {
    const identity = identityMatrix(14);
    expect(
      maxAbsDifference(multiplyMatrices(EVOLUTION_TO_FLAVOUR, FLAVOUR_TO_EVOLUTION), identity),
    ).toBeLessThan(1e-15);
    expect(
      maxAbsDifference(multiplyMatrices(FLAVOUR_TO_EVOLUTION, EVOLUTION_TO_FLAVOUR), identity),
    ).toBeLessThan(1e-15);
  });

  it('should give u = Σ/12 + V/12 + T3/4 + V3/4 + T8/12 + V8/12 + T15/24 + … + V35/60', () => {
    const u = FLAVOUR_BASIS.findIndex((member) => member.name === 'U');
    const row = Array.from(EVOLUTION_TO_FLAVOUR.data.subarray(u * 14, u * 14 + 14));
    expect(row).toEqual([
      0,
      1 / 12,
      0,
      1 / 12,
      1 / 4,
      1 / 12,
      1 / 24,
      1 / 40,
      1 / 60,
      1 / 4,
      1 / 12,
      1 / 24,
      1 / 40,
      1 / 60,
    ]);
  });

  it('should give t̄ = Σ/12 − V/12 − T35/12 + V35/12 (only the 35 combinations see the top)', () => {
    const tbar = FLAVOUR_BASIS.findIndex((member) => member.name === 'TBAR');
    const row = byName(EVOLUTION_TO_FLAVOUR.data.subarray(tbar * 14, tbar * 14 + 14));
    expect(row).toMatchObject({
      Sigma: 1 / 12,
      V: -1 / 12,
      T35: -5 / 60,
      V35: 5 / 60,
      T3: 0,
      V24: 0,
    });
  });

  it('should round-trip many points through both rotations', () => {
    const points = 5;
    const values = Float64Array.from({ length: points * 14 }, (_, i) => Math.sin(i + 1));
    const back = rotateFlavours(EVOLUTION_TO_FLAVOUR, rotateFlavours(FLAVOUR_TO_EVOLUTION, values));
    back.forEach((value, i) => {
      expect(value).toBeCloseTo(values[i], 14);
    });
  });

  it('should reject values whose length is not a whole number of points', () => {
    expect(() => rotateFlavours(FLAVOUR_TO_EVOLUTION, new Float64Array(15))).toThrow(
      /values to rotate: expected shape \[\*, 14\], got \[15\]/,
    );
  });
});

describe('evolutionToFlavourAt', () => {
  it('should equal the EVOLUTION_TO_FLAVOUR product for every basis vector and a mixed point', () => {
    const points = [
      ...EVOLUTION_BASIS.map((_, e) => Float64Array.from({ length: 14 }, (__, j) => +(j === e))),
      Float64Array.from({ length: 14 }, (_, j) => Math.sin(3 * j + 1) * 10 ** (j % 4)),
    ];
    for (const evolution of points) {
      const expected = rotateFlavours(EVOLUTION_TO_FLAVOUR, evolution);
      // The point sits at an offset in a longer array, as in (points, flavours) layouts.
      const stored = new Float64Array(20);
      stored.set(evolution, 3);
      const result = new Float64Array(17);
      evolutionToFlavourAt(stored, 3, result, 2);
      expect(result[0]).toBe(0);
      const scale = Math.max(...evolution.map(Math.abs));
      expected.forEach((value, f) => {
        expect(Math.abs(result[2 + f] - value)).toBeLessThanOrEqual(1e-15 * scale);
      });
    }
  });
});
