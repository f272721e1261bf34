import { integrate } from './gauss-legendre.js';

/** ζ(2) = π²/6. */
export const ZETA2 = (Math.PI * Math.PI) / 6;
/** ζ(3). */
export const ZETA3 = 1.2020569031595942;

/** s^k/(e^s − 1), with its limit at s = 0. */
function boseIntegrand(s: number, power: number): number {
  return s === 0 ? (power === 1 ? 1 : 0) : s ** power / Math.expm1(s);
}

/**
 * Nielsen's generalised polylogarithm S_{n−1,1}… in the one form needed here:
 * ∫_0^U s^k/(e^s − 1) ds, a smooth integrand, integrated in panels of width ≤ 4.
 */
function boseIntegral(upper: number, power: number): number {
  const panels = Math.max(1, Math.ceil(upper / 4));
  const width = upper / panels;
  let sum = 0;
  for (let panel = 0; panel < panels; panel++) {
    sum += integrate((s) => boseIntegrand(s, power), panel * width, (panel + 1) * width, 24);
  }
  return sum;
}

/**
 * The dilogarithm Li2(y) for 0 ≤ y ≤ 1: ∫_0^U s/(e^s − 1) ds with U = −ln(1 − y)
 * (the substitution t = 1 − e^(−s) in −∫_0^y ln(1 − t)/t dt).
 */
export function dilogarithm(y: number): number {
  if (y === 1) return ZETA2;
  return boseIntegral(-Math.log1p(-y), 1);
}

/**
 * Nielsen's S_{1,2}(y) = ½∫_0^y ln²(1 − t)/t dt for 0 ≤ y ≤ 1, as ½∫_0^U s²/(e^s − 1) ds with
 * U = −ln(1 − y).
 */
export function nielsenS12(y: number): number {
  if (y === 1) return ZETA3;
  return 0.5 * boseIntegral(-Math.log1p(-y), 2);
}

/**
 * The trilogarithm Li3(y) for −1 ≤ y < 1: ½∫_0^∞ s²/(e^s/y − 1) ds (from
 * Li_n(y) = ∫_0^∞ s^(n−1)/(e^s/y − 1) ds/Γ(n)), in unit panels up to s = 45.
 */
export function trilogarithm(y: number): number {
  if (y === 0) return 0;
  let sum = 0;
  for (let start = 0; start < 45; start += 1) {
    sum += integrate((s) => (s * s) / (Math.exp(s) / y - 1), start, start + 1, 16);
  }
  return 0.5 * sum;
}

/** Nielsen's S_{1,2}(−x) for 0 ≤ x ≤ 1: ½∫_0^1 ln²(1 + xτ)/τ dτ (analytic integrand). */
export function nielsenS12OfMinus(x: number): number {
  return 0.5 * integrate((t) => (t === 0 ? 0 : Math.log1p(x * t) ** 2 / t), 0, 1, 24);
}

/** Li2(−x) for 0 ≤ x ≤ 1: −∫_0^x ln(1 + t)/t dt (analytic integrand). */
export function dilogarithmOfMinus(x: number): number {
  return -integrate((t) => (t === 0 ? 1 : Math.log1p(t) / t), 0, x, 24);
}

/**
 * S2(x) = ∫_{x/(1+x)}^{1/(1+x)} dz/z ln((1 − z)/z)
 *       = −2 Li2(−x) + ½ ln²x − 2 ln x ln(1 + x) − π²/6,
 * the function of the NLO splitting functions' x → −x pieces (Ellis, Stirling, Webber).
 */
export function s2Function(x: number): number {
  const lnx = Math.log(x);
  return -2 * dilogarithmOfMinus(x) + 0.5 * lnx * lnx - 2 * lnx * Math.log1p(x) - ZETA2;
}
