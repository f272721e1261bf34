import { InvalidArgumentError } from '@partonfit/core';
import { unitGaussLegendre } from './kernels/gauss-legendre.js';

/**
 * Piecewise Lagrange interpolation in log x on an x-grid: between knots x_m and x_(m+1), f is the
 * polynomial of the given degree in ln x through the `degree + 1` knots around the interval (the
 * stencil), so f is continuous and the basis functions w_j satisfy w_j(x_i) = δ_ij.
 */
export interface LogLagrangeBasis {
  /** The knots (x), strictly increasing, the last one 1. */
  readonly xGrid: Float64Array;
  /** ln of the knots. */
  readonly logX: Float64Array;
  /** The polynomial degree. */
  readonly degree: number;
  /** The first knot of the stencil of interval m (from x_m to x_(m+1)). */
  stencilStart(interval: number): number;
  /**
   * The values at y of the `degree + 1` basis functions of interval m's stencil, in stencil
   * order, written to `out`.
   */
  stencilValues(interval: number, logY: number, out: Float64Array): void;
}

/**
 * The log-x Lagrange basis of an x-grid.
 *
 * @param xGrid - the knots (x): strictly increasing, positive, ending at x = 1 (where x·f = 0)
 * @param degree - the polynomial degree, 1 … number of knots − 1
 * @throws InvalidArgumentError for a grid that is not such, or a degree out of range
 */
export function logLagrangeBasis(xGrid: ArrayLike<number>, degree: number): LogLagrangeBasis {
  const n = xGrid.length;
  if (!Number.isInteger(degree) || degree < 1 || degree > n - 1) {
    throw new InvalidArgumentError({
      argument: 'interpolationDegree',
      problem: `expected an integer from 1 to ${n - 1} (knots − 1), got ${degree}`,
    });
  }
  for (let i = 0; i < n; i++) {
    const x = xGrid[i];
    if (!(x > 0 && x <= 1) || (i > 0 && !(x > xGrid[i - 1]))) {
      throw new InvalidArgumentError({
        argument: 'xGrid',
        problem: `expected strictly increasing x in (0, 1], got x[${i}] = ${x}`,
      });
    }
  }
  if (xGrid[n - 1] !== 1) {
    throw new InvalidArgumentError({
      argument: 'xGrid',
      problem: `expected the last knot to be x = 1, got ${xGrid[n - 1]}`,
    });
  }
  const knots = Float64Array.from(xGrid);
  const logX = knots.map(Math.log);
  const lower = Math.floor((degree - 1) / 2);
  const stencilStart = (interval: number) =>
    Math.min(Math.max(interval - lower, 0), n - 1 - degree);
  return {
    xGrid: knots,
    logX,
    degree,
    stencilStart,
    stencilValues(interval, logY, out) {
      const start = stencilStart(interval);
      for (let a = 0; a <= degree; a++) {
        let value = 1;
        const logA = logX[start + a];
        for (let b = 0; b <= degree; b++) {
          if (b === a) continue;
          const logB = logX[start + b];
          value *= (logY - logB) / (logA - logB);
        }
        out[a] = value;
      }
    },
  };
}

/** The interval m with x_m ≤ y ≤ x_(m+1) (the last one for y = 1). */
function intervalOf(basis: LogLagrangeBasis, logY: number): number {
  const { logX } = basis;
  let low = 0;
  let high = logX.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (logX[middle] <= logY) low = middle;
    else high = middle;
  }
  return low;
}

/**
 * The interpolation matrix from the knots to points: row p holds the weights of every knot in
 * f(x_p) = Σ_j w_j(x_p)·f(x_j).
 *
 * @param basis - the basis of the knots
 * @param points - x values inside [x_0, 1]
 * @returns (points, knots), row-major
 * @throws InvalidArgumentError for a point outside the grid
 */
export function interpolationMatrix(
  basis: LogLagrangeBasis,
  points: ArrayLike<number>,
): Float64Array {
  const n = basis.xGrid.length;
  const matrix = new Float64Array(points.length * n);
  const values = new Float64Array(basis.degree + 1);
  for (let p = 0; p < points.length; p++) {
    const x = points[p];
    if (!(x >= basis.xGrid[0] && x <= 1)) {
      throw new InvalidArgumentError({
        argument: 'xOut',
        problem: `x = ${x} is outside the x-grid [${basis.xGrid[0]}, 1]`,
      });
    }
    const logY = Math.log(x);
    const interval = intervalOf(basis, logY);
    basis.stencilValues(interval, logY, values);
    const start = basis.stencilStart(interval);
    for (let a = 0; a <= basis.degree; a++) matrix[p * n + start + a] = values[a];
  }
  return matrix;
}

/**
 * The weights of the Mellin moment ∫_(x_0)^1 x^(N−1)·f(x) dx = Σ_j weights[j]·x·f(x_j) of a
 * function given by its x·f on the knots: weights[j] = ∫ w_j(x)·x^(N−1) d ln x, by 16-point
 * Gauss–Legendre on each interval. N = 1 counts quarks (valence sum rules), N = 2 is the
 * momentum fraction.
 *
 * @param basis - the interpolation basis
 * @param n - the moment N
 * @returns (x)
 */
export function mellinWeights(basis: LogLagrangeBasis, n: number): Float64Array {
  const { logX, degree } = basis;
  const weights = new Float64Array(logX.length);
  const { nodes, weights: gaussWeights } = unitGaussLegendre(16);
  const values = new Float64Array(degree + 1);
  for (let m = 0; m + 1 < logX.length; m++) {
    const start = basis.stencilStart(m);
    const half = (logX[m + 1] - logX[m]) / 2;
    for (let p = 0; p < nodes.length; p++) {
      const logY = logX[m] + half * (nodes[p] + 1);
      basis.stencilValues(m, logY, values);
      const factor = gaussWeights[p] * half * Math.exp((n - 1) * logY);
      for (let a = 0; a <= degree; a++) weights[start + a] += factor * values[a];
    }
  }
  return weights;
}
