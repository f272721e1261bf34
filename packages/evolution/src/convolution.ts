import { unitGaussLegendre } from './kernels/gauss-legendre.js';
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
  return convolutionMatrices([kernel], basis)[0];
}

/**
 * {@link convolutionMatrix} of several kernels at once, the same matrices: the quadrature nodes,
 * z and the interpolation stencils there are computed once for all of them.
 *
 * @param kernels - the kernels
 * @param basis - the interpolation basis
 * @returns one (x, x) matrix per kernel, row-major: (output knot i, input knot j)
 */
export function convolutionMatrices(
  kernels: readonly Kernel[],
  basis: LogLagrangeBasis,
): Float64Array[] {
  const { xGrid, logX, degree } = basis;
  const n = xGrid.length;
  const matrices = kernels.map(() => new Float64Array(n * n));
  const { nodes, weights } = unitGaussLegendre(POINTS);
  const width = degree + 1;
  // ln y, the measure of ln y and the stencil at every node of every interval m: `ends` on the
  // interval that reaches z = 1 (ln y = ln x_m + Δ·s³, with its Jacobian), `inner` on the others
  // (ln y = ln x_m + Δ·s).
  const nodesOf = (
    substitution: (s: number, weight: number, interval: number) => [number, number],
  ) => {
    const logY = new Float64Array(n * POINTS);
    const measure = new Float64Array(n * POINTS);
    const stencils = new Float64Array(n * POINTS * width);
    for (let m = 0; m < n - 1; m++) {
      const interval = logX[m + 1] - logX[m];
      for (let p = 0; p < POINTS; p++) {
        const node = m * POINTS + p;
        const [offset, nodeMeasure] = substitution(0.5 * (nodes[p] + 1), weights[p], interval);
        logY[node] = logX[m] + offset;
        measure[node] = nodeMeasure;
        basis.stencilValues(m, logY[node], stencils.subarray(node * width, (node + 1) * width));
      }
    }
    return { logY, measure, stencils };
  };
  const inner = nodesOf((s, weight, interval) => [interval * s, 0.5 * weight * interval]);
  const ends = nodesOf((s, weight, interval) => [
    interval * s * s * s,
    0.5 * weight * interval * 3 * s * s,
  ]);
  for (let i = 0; i < n - 1; i++) {
    const row = i * n;
    for (let m = i; m < n - 1; m++) {
      const start = basis.stencilStart(m);
      const { logY, measure, stencils } = m === i ? ends : inner;
      for (let p = 0; p < POINTS; p++) {
        const node = m * POINTS + p;
        const z = Math.exp(logX[i] - logY[node]);
        // dz = z·d(ln y)
        const weight = measure[node] * z;
        const stencil = node * width;
        for (let k = 0; k < kernels.length; k++) {
          const kernel = kernels[k];
          const matrix = matrices[k];
          const regular = kernel.regular(z);
          const singular = kernel.plus === 0 ? 0 : kernel.plus / (1 - z);
          for (let a = 0; a <= degree; a++) {
            const j = start + a;
            const subtraction = m === i && j === i ? 1 : 0;
            matrix[row + j] +=
              weight *
              (regular * stencils[stencil + a] + singular * (stencils[stencil + a] - subtraction));
          }
        }
      }
    }
    kernels.forEach((kernel, k) => {
      matrices[k][row + i] += kernel.plus * Math.log1p(-xGrid[i] / xGrid[i + 1]) + kernel.delta;
    });
  }
  return matrices;
}
