import { integrate } from './gauss-legendre.js';
import type { Kernel } from './kernel.js';

/** Upper end of u = −ln z: e^(−60) is below every scale of interest. */
const LOG_CUTOFF = 60;
/** Upper end of v = −ln(1 − z), where 1 − z is still resolved in float64. */
const LOG_CUTOFF_ONE = 34;

/**
 * ∫ of g over (0, ½] in u = −ln z and over [½, 1) in v = −ln(1 − z), in unit panels, so that
 * powers of ln z and ln(1 − z) at the ends are integrated accurately.
 */
function integrateUnitInterval(g: (z: number) => number): number {
  let sum = 0;
  for (let start = Math.LN2; start < LOG_CUTOFF; start += 1) {
    sum += integrate(
      (u) => {
        const z = Math.exp(-u);
        return z * g(z);
      },
      start,
      start + 1,
      20,
    );
  }
  for (let start = Math.LN2; start < LOG_CUTOFF_ONE; start += 1) {
    sum += integrate(
      (v) => {
        const oneMinusZ = Math.exp(-v);
        return oneMinusZ * g(1 - oneMinusZ);
      },
      start,
      start + 1,
      20,
    );
  }
  return sum;
}

/**
 * The Mellin moment ∫_0^1 z^(N−1)·K(z) dz of a kernel, plus distribution and δ included:
 * ∫ z^(N−1)R(z) dz + A·∫ (z^(N−1) − 1)/(1 − z) dz + D (minus the anomalous dimension γ(N) in
 * the convention P = −γ). For real N where the integral converges.
 *
 * @param kernel - the kernel
 * @param n - the moment N (N = 1: number, N = 2: momentum)
 */
export function kernelMoment(kernel: Kernel, n: number): number {
  return (
    integrateUnitInterval(
      (z) => z ** (n - 1) * kernel.regular(z) + (kernel.plus * (z ** (n - 1) - 1)) / (1 - z),
    ) + kernel.delta
  );
}
