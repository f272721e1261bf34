import { FLAVOUR_BASIS, ShapeError, type LhaFlavour } from '@partonfit/core';

/**
 * Leading-order DIS structure functions as linear combinations of x·f in the flavour basis, at
 * one scale (no evolution): the parton model with four massless quarks (u, d, s, c) and a
 * diagonal CKM matrix. q⁺ = q + q̄ below.
 *
 * @packageDocumentation
 */

/**
 * A linear combination of x·f in the flavour (LHA) basis, `{ flavour: coefficient }`; absent
 * flavours have coefficient 0. The value at x is Σ_q coefficient_q · x·f_q(x).
 */
export type FlavourCombination = Readonly<Partial<Record<LhaFlavour, number>>>;

const UP_CHARGE_SQUARED = 4 / 9;
const DOWN_CHARGE_SQUARED = 1 / 9;

/** Photon-exchange F2 of the proton: F2ᵖ = x Σ_q e_q² q⁺ = 4/9 (u⁺ + c⁺) + 1/9 (d⁺ + s⁺). */
export const F2_PROTON: FlavourCombination = {
  U: UP_CHARGE_SQUARED,
  UBAR: UP_CHARGE_SQUARED,
  C: UP_CHARGE_SQUARED,
  CBAR: UP_CHARGE_SQUARED,
  D: DOWN_CHARGE_SQUARED,
  DBAR: DOWN_CHARGE_SQUARED,
  S: DOWN_CHARGE_SQUARED,
  SBAR: DOWN_CHARGE_SQUARED,
};

/**
 * Photon-exchange F2 of the deuteron per nucleon, (F2ᵖ + F2ⁿ)/2 with the neutron from isospin
 * symmetry (u ↔ d): 5/18 (u⁺ + d⁺) + 1/9 s⁺ + 4/9 c⁺.
 */
export const F2_DEUTERON: FlavourCombination = {
  U: 5 / 18,
  UBAR: 5 / 18,
  D: 5 / 18,
  DBAR: 5 / 18,
  S: DOWN_CHARGE_SQUARED,
  SBAR: DOWN_CHARGE_SQUARED,
  C: UP_CHARGE_SQUARED,
  CBAR: UP_CHARGE_SQUARED,
};

/** Charged-current F2 of ν p (W⁺ absorbed by d, s, ū, c̄): 2x (d + s + ū + c̄). */
export const F2_NEUTRINO_PROTON: FlavourCombination = { D: 2, S: 2, UBAR: 2, CBAR: 2 };

/** Charged-current xF3 of ν p: 2x (d + s − ū − c̄). */
export const XF3_NEUTRINO_PROTON: FlavourCombination = { D: 2, S: 2, UBAR: -2, CBAR: -2 };

/** Charged-current F2 of ν̄ p (W⁻ absorbed by u, c, d̄, s̄): 2x (u + c + d̄ + s̄). */
export const F2_ANTINEUTRINO_PROTON: FlavourCombination = { U: 2, C: 2, DBAR: 2, SBAR: 2 };

/** Charged-current xF3 of ν̄ p: 2x (u + c − d̄ − s̄). */
export const XF3_ANTINEUTRINO_PROTON: FlavourCombination = { U: 2, C: 2, DBAR: -2, SBAR: -2 };

/**
 * Charm production in ν p charged-current DIS (the dimuon channel), F2 of the s → c
 * transition with |V_cs| = 1: 2x s.
 */
export const F2_CHARM_NEUTRINO_PROTON: FlavourCombination = { S: 2 };

/** Charm production in ν̄ p charged-current DIS, s̄ → c̄ with |V_cs| = 1: 2x s̄. */
export const F2_CHARM_ANTINEUTRINO_PROTON: FlavourCombination = { SBAR: 2 };

/** The charm part of photon-exchange F2 (charm-tagged F2, massless charm): 4/9 c⁺. */
export const F2_CHARM_PROTON: FlavourCombination = {
  C: UP_CHARGE_SQUARED,
  CBAR: UP_CHARGE_SQUARED,
};

/**
 * The value x·f of one flavour, as NNPDF's positivity and integrability tables hold it (a
 * "PDF value" pseudo-observable).
 */
export function pdfValue(flavour: LhaFlavour): FlavourCombination {
  return { [flavour]: 1 };
}

/**
 * The values of a flavour combination at many points.
 *
 * @param xf - x·f in the flavour basis, shape `(point, flavour)` row-major in the order of core's
 *   `FLAVOUR_BASIS`
 * @returns shape `(point)`
 * @throws ShapeError - when `xf` is not a whole number of 14-flavour rows
 */
export function combinationValues(combination: FlavourCombination, xf: Float64Array): Float64Array {
  const flavours = FLAVOUR_BASIS.length;
  if (xf.length % flavours !== 0) {
    throw new ShapeError({
      quantity: 'x·f in the flavour basis',
      expected: [null, flavours],
      actual: [xf.length],
      axes: '(point, flavour)',
    });
  }
  const terms = FLAVOUR_BASIS.map((member, q) => ({
    q,
    weight: combination[member.name as LhaFlavour] ?? 0,
  })).filter(({ weight }) => weight !== 0);
  return Float64Array.from({ length: xf.length / flavours }, (_, point) =>
    terms.reduce((sum, { q, weight }) => sum + weight * xf[point * flavours + q], 0),
  );
}
