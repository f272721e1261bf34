import type { HeavyQuarkValues, TheoryCard } from './theory-card.js';

/** The first number of light flavours: u, d and s are always active. */
export const LIGHT_FLAVOURS = 3;

/**
 * The squared heavy-quark threshold scales μ_h² = (k_h·m_h)² (GeV²) that change the number of
 * active flavours from 3 up to `maxNf`, in increasing order: index 0 is charm (3 → 4 flavours).
 *
 * @param masses - the heavy-quark masses m_h (GeV)
 * @param ratios - the threshold ratios k_h
 * @param maxNf - the largest number of active flavours (3 … 6)
 */
export function thresholdScales2(
  masses: HeavyQuarkValues,
  ratios: HeavyQuarkValues,
  maxNf: number,
): number[] {
  const scales = [
    (ratios.charm * masses.charm) ** 2,
    (ratios.bottom * masses.bottom) ** 2,
    (ratios.top * masses.top) ** 2,
  ];
  return scales.slice(0, Math.max(0, maxNf - LIGHT_FLAVOURS));
}

/**
 * The number of active flavours at μ²: the lowest number plus the thresholds at or below μ², so
 * at a threshold itself the higher number applies (as APFEL's and eko's αs, and the
 * `AlphaS_Vals` of NNPDF's LHAPDF sets, have it).
 *
 * @param mu2 - μ² (GeV²)
 * @param thresholds2 - the squared threshold scales of {@link thresholdScales2}
 * @param lowest - the number below the first threshold: 3, or the fixed number of a
 *   fixed-flavour-number scheme (no thresholds)
 */
export function activeFlavours(
  mu2: number,
  thresholds2: readonly number[],
  lowest: number = LIGHT_FLAVOURS,
): number {
  let nf = lowest;
  for (const threshold2 of thresholds2) if (mu2 >= threshold2) nf++;
  return nf;
}

/**
 * The numbers of active flavours a quantity given at μ² may be in: {@link activeFlavours}, and
 * on a threshold also the number below it (the value before the matching).
 *
 * @param mu2 - μ² (GeV²)
 * @param thresholds2 - the squared threshold scales of {@link thresholdScales2}
 * @param lowest - as for {@link activeFlavours}
 * @returns the higher number first
 */
export function flavoursAllowedAt(
  mu2: number,
  thresholds2: readonly number[],
  lowest: number = LIGHT_FLAVOURS,
): number[] {
  const active = activeFlavours(mu2, thresholds2, lowest);
  return thresholds2.includes(mu2) ? [active, active - 1] : [active];
}

/**
 * The squared thresholds a card's αs (`maxNf` = `MaxNfAs`) or PDFs (`MaxNfPdf`) cross: those of
 * {@link thresholdScales2}, none in a fixed-flavour-number scheme.
 *
 * @param card - the theory card
 * @param maxNf - the largest number of active flavours of a variable-flavour-number scheme
 */
export function thresholdsOfTheory(card: TheoryCard, maxNf: number): number[] {
  return card.fixedFlavours === undefined
    ? thresholdScales2(card.masses, card.thresholdRatios, maxNf)
    : [];
}

/**
 * The largest number of flavours in a card's PDFs: `NfFF` in a fixed-flavour-number scheme,
 * else `MaxNfPdf`.
 *
 * @param card - the theory card
 */
export function maxPdfFlavours(card: TheoryCard): number {
  return card.fixedFlavours ?? card.maxNfPdf;
}
