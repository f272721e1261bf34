import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import type { LhapdfGrid } from './lhapdf-grid.js';

/**
 * The index i of the knot interval [knots[i], knots[i+1]] used for `value`: the last knot ≤ value
 * (past repeated knots), but never the last knot, so that i + 1 exists — LHAPDF's rule. A value at
 * a threshold Q that ends one block and starts the next thus falls in the upper block.
 */
export function intervalBelow(knots: Float64Array, value: number): number {
  let low = 0;
  let high = knots.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (knots[middle] > value) high = middle;
    else low = middle + 1;
  }
  return Math.min(Math.max(low - 1, 0), knots.length - 2);
}

/**
 * d(x·f)/d log x at the knots, LHAPDF's estimate: the mean of the slopes in log x to the
 * neighbouring knots (one-sided at the first and last knot).
 *
 * @param values - (x, stride) row-major
 * @param logX - log of the x knots, (x)
 * @returns (x, stride)
 */
export function logXDerivativesOf(
  values: Float64Array,
  logX: Float64Array,
  stride: number,
): Float64Array {
  const nx = logX.length;
  const derivatives = new Float64Array(values.length);
  for (let ix = 0; ix < nx; ix++) {
    for (let column = 0; column < stride; column++) {
      const here = values[ix * stride + column];
      const left =
        ix > 0
          ? (here - values[(ix - 1) * stride + column]) / (logX[ix] - logX[ix - 1])
          : undefined;
      const right =
        ix < nx - 1
          ? (values[(ix + 1) * stride + column] - here) / (logX[ix + 1] - logX[ix])
          : undefined;
      derivatives[ix * stride + column] =
        left === undefined ? (right ?? 0) : right === undefined ? left : (left + right) / 2;
    }
  }
  return derivatives;
}

/**
 * The cubic Hermite polynomial on t ∈ [0, 1] with values `low`, `high` and slopes (already
 * multiplied by the interval width) `lowSlope`, `highSlope` at the ends. Exact at t = 0 and t = 1.
 */
function hermite(
  t: number,
  low: number,
  lowSlope: number,
  high: number,
  highSlope: number,
): number {
  const t2 = t * t;
  const t3 = t2 * t;
  return (
    (2 * t3 - 3 * t2 + 1) * low +
    (t3 - 2 * t2 + t) * lowSlope +
    (-2 * t3 + 3 * t2) * high +
    (t3 - t2) * highSlope
  );
}

/**
 * x·f of column `column` (a PID's position in `grid.pids`) at (x, Q²) inside the grid, by
 * LHAPDF's `logcubic` interpolator (LogBicubicInterpolator, LHAPDF 6.4 and later):
 *
 * 1. In log x, on the interval [x_i, x_i+1]: a cubic Hermite polynomial through the knot values
 *    with the knot derivatives of {@link LhapdfGrid.logXDerivatives}; this gives x·f at (x, Q_k)
 *    for the Q knots k needed next.
 * 2. In log Q², on [Q²_j, Q²_j+1]: a cubic Hermite polynomial through those values, with
 *    derivatives at each end the mean of the slopes to the neighbouring Q knots — one-sided at the
 *    edge of a block (the first or last knot of the grid, or a knot that repeats because a block
 *    starts there).
 * 3. A block with only two Q knots (an edge at both ends) falls back to bilinear interpolation in
 *    (log x, log Q²).
 *
 * The caller guarantees xKnots[0] ≤ x ≤ xKnots[last] and q2Knots[0] ≤ q2 ≤ q2Knots[last].
 * The Hermite basis form used here returns the knot values exactly at the knots; LHAPDF's own
 * polynomial-coefficient form agrees with it to rounding (~10⁻¹⁶ relative).
 */
export function interpolateLogBicubic(
  grid: LhapdfGrid,
  column: number,
  x: number,
  q2: number,
): number {
  const { logX, logQ2, q2Knots, values, logXDerivatives } = grid;
  const npid = grid.pids.length;
  const nq = q2Knots.length;
  const ix = intervalBelow(grid.xKnots, x);
  const iq = intervalBelow(q2Knots, q2);
  const logx = Math.log(x);
  const logq2 = Math.log(q2);
  const at = (i: number, j: number) => (i * nq + j) * npid + column;

  const lowerEdge = iq === 0 || q2Knots[iq] === q2Knots[iq - 1];
  const upperEdge = iq + 1 === nq - 1 || q2Knots[iq + 1] === q2Knots[iq + 2];
  if (lowerEdge && upperEdge) {
    const tx = (logx - logX[ix]) / (logX[ix + 1] - logX[ix]);
    const low = values[at(ix, iq)] + tx * (values[at(ix + 1, iq)] - values[at(ix, iq)]);
    const high =
      values[at(ix, iq + 1)] + tx * (values[at(ix + 1, iq + 1)] - values[at(ix, iq + 1)]);
    return low + ((logq2 - logQ2[iq]) / (logQ2[iq + 1] - logQ2[iq])) * (high - low);
  }

  const widthX = logX[ix + 1] - logX[ix];
  const tx = (logx - logX[ix]) / widthX;
  const inX = (j: number) =>
    hermite(
      tx,
      values[at(ix, j)],
      logXDerivatives[at(ix, j)] * widthX,
      values[at(ix + 1, j)],
      logXDerivatives[at(ix + 1, j)] * widthX,
    );
  const width = logQ2[iq + 1] - logQ2[iq];
  const low = inX(iq);
  const high = inX(iq + 1);
  // slopes below and above the interval, scaled to its width
  const below = () => ((low - inX(iq - 1)) * width) / (logQ2[iq] - logQ2[iq - 1]);
  const above = () => ((inX(iq + 2) - high) * width) / (logQ2[iq + 2] - logQ2[iq + 1]);
  const across = high - low;
  const lowSlope = lowerEdge ? across : (across + below()) / 2;
  const highSlope = upperEdge ? across : (across + above()) / 2;
  return hermite((logq2 - logQ2[iq]) / width, low, lowSlope, high, highSlope);
}

/**
 * x·f at other x values from its values on x knots at one scale, by the x part of LHAPDF's
 * `logcubic` interpolator: on [x_i, x_i+1] a cubic Hermite polynomial in log x through the knot
 * values with the knot derivatives of {@link logXDerivativesOf}. This is what LHAPDF returns at a
 * Q knot of a set whose x knots are `xKnots` — e.g. an evolved fit at Q0 read from its
 * `.exportgrid` instead of its LHAPDF grid.
 *
 * @param xKnots - the x knots (x), increasing and positive
 * @param values - x·f on the knots, (x, columns) row-major (e.g. an exportgrid's `pdfGrid`)
 * @param points - the x values to interpolate to, inside [xKnots[0], xKnots[last]]
 * @returns (points, columns) row-major
 * @throws ShapeError when `values` is not a whole number of rows of the knots;
 *   InvalidArgumentError for fewer than two knots or a point outside the knots
 */
export function interpolateLogCubicX(
  xKnots: Float64Array,
  values: Float64Array,
  points: ArrayLike<number>,
): Float64Array {
  const nx = xKnots.length;
  if (nx < 2) {
    throw new InvalidArgumentError({
      argument: 'xKnots',
      problem: `expected at least 2 knots, got ${nx}`,
    });
  }
  const columns = values.length / nx;
  if (!Number.isInteger(columns) || columns === 0) {
    throw new ShapeError({
      quantity: 'x·f on the x knots',
      expected: [nx, null],
      actual: [values.length],
      axes: '(x, columns)',
    });
  }
  const logX = xKnots.map(Math.log);
  const derivatives = logXDerivativesOf(values, logX, columns);
  const result = new Float64Array(points.length * columns);
  for (let p = 0; p < points.length; p++) {
    const x = points[p];
    if (!(x >= xKnots[0] && x <= xKnots[nx - 1])) {
      throw new InvalidArgumentError({
        argument: 'points',
        problem: `x = ${x} is outside the knots [${xKnots[0]}, ${xKnots[nx - 1]}]`,
      });
    }
    const ix = intervalBelow(xKnots, x);
    const width = logX[ix + 1] - logX[ix];
    const t = (Math.log(x) - logX[ix]) / width;
    for (let column = 0; column < columns; column++) {
      const low = ix * columns + column;
      const high = low + columns;
      result[p * columns + column] = hermite(
        t,
        values[low],
        derivatives[low] * width,
        values[high],
        derivatives[high] * width,
      );
    }
  }
  return result;
}
