import type { PerturbativeOrder } from './theory-card.js';

/**
 * The QCD β-function coefficients for a = αs/(4π), da/d ln μ² = −Σ_k β_k a^(k+2), with nf
 * active flavours: β0 = 11 − 2nf/3, β1 = 102 − 38nf/3, β2 = 2857/2 − 5033nf/18 + 325nf²/54.
 *
 * @param nf - active flavours
 * @param order - 0 (β0), 1 (β0, β1) or 2 (β0, β1, β2)
 * @returns the coefficients β_0 … β_order
 */
export function betaCoefficients(nf: number, order: PerturbativeOrder): number[] {
  const all = [
    11 - (2 / 3) * nf,
    102 - (38 / 3) * nf,
    2857 / 2 - (5033 / 18) * nf + (325 / 54) * nf * nf,
  ];
  return all.slice(0, order + 1);
}

/**
 * β(a) = da/d ln μ² = −Σ_k β_k a^(k+2).
 *
 * @param a - αs/(4π)
 * @param beta - the coefficients of {@link betaCoefficients}
 */
export function betaFunction(a: number, beta: readonly number[]): number {
  let sum = 0;
  for (let k = beta.length - 1; k >= 0; k--) sum = sum * a + beta[k];
  return -a * a * sum;
}
