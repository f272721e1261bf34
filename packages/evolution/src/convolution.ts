import { gaussLegendre } from './kernels/gauss-legendre.js';
import type { Kernel } from './kernels/kernel.js';
import type { LogLagrangeBasis } from './interpolation.js';

/** Gauss–Legendre points per x-grid interval of the convolution integrals. */
const POINTS = 16;

/**
 * The matrix of a kernel's convolution on an interpolation basis: K[i, j] is the weight of
 * x·f(x_j) in (K ⊗ xf)(x_i), so (K ⊗ xf)(x_i) = Σ_j K[i, j]·xf(x_j) for every xf of the basis.
 *
 * With y = x_i/z, the integral ∫_(x_i)^1 dz … is split at the knots y = x_m and done by
 * Gauss–Legendre in ln y on each interval; on the interval that reaches z = 1 the variable is
 * ln y = ln x_i + Δ·s³ so that the ln(1 − z) singularities of the kernels are integrated
 * accurately. The plus distribution's subtraction outside that interval is done analytically:
 * A·ln(1 − x_i/x_(i+1)) + D on the diagonal. The row of x = 1 is zero (x·f(1) = 0).
 *
 * @param kernel - the kernel
 * @param basis - the interpolation basis
 * @returns (x, x) row-major: (output knot i, input knot j)
 */
export function convolutionMatrix(kernel: Kernel, basis: LogLagrangeBasis): Float64Array {
  const { xGrid, logX, degree } = basis;
  const n = xGrid.length;
  const matrix = new Float64Array(n * n);
  const { nodes, weights } = gaussLegendre(POINTS);
  const stencil = new Float64Array(degree + 1);
  for (let i = 0; i < n - 1; i++) {
    const row = i * n;
    for (let m = i; m < n - 1; m++) {
      const start = basis.stencilStart(m);
      const width = logX[m + 1] - logX[m];
      for (let p = 0; p < POINTS; p++) {
        const s = 0.5 * (nodes[p] + 1);
        // measure of ln y (times the Jacobian of s³ on the first interval)
        let logY: number;
        let measure: number;
        if (m === i) {
          logY = logX[m] + width * s * s * s;
          measure = 0.5 * weights[p] * width * 3 * s * s;
        } else {
          logY = logX[m] + width * s;
          measure = 0.5 * weights[p] * width;
        }
        const z = Math.exp(logX[i] - logY);
        basis.stencilValues(m, logY, stencil);
        const regular = kernel.regular(z);
        const singular = kernel.plus === 0 ? 0 : kernel.plus / (1 - z);
        // dz = z·d(ln y)
        const weight = measure * z;
        for (let a = 0; a <= degree; a++) {
          const j = start + a;
          const subtraction = m === i && j === i ? 1 : 0;
          matrix[row + j] +=
            weight * (regular * stencil[a] + singular * (stencil[a] - subtraction));
        }
      }
    }
    matrix[row + i] += kernel.plus * Math.log1p(-xGrid[i] / xGrid[i + 1]) + kernel.delta;
  }
  return matrix;
}
