import type { HeavyQuarkValues } from './theory-card.js';

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
 * The number of active flavours at μ²: 3 plus the thresholds at or below μ², so at a threshold
 * itself the higher number applies (as APFEL's and eko's αs, and the `AlphaS_Vals` of NNPDF's
 * LHAPDF sets, have it).
 *
 * @param mu2 - μ² (GeV²)
 * @param thresholds2 - the squared threshold scales of {@link thresholdScales2}
 */
export function activeFlavours(mu2: number, thresholds2: readonly number[]): number {
  let nf = LIGHT_FLAVOURS;
  for (const threshold2 of thresholds2) if (mu2 >= threshold2) nf++;
  return nf;
}
