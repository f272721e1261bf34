import { InvalidArgumentError, ShapeError } from '@partonfit/core';

/**
 * A monotone piecewise-cubic Hermite interpolant (PCHIP, Fritsch–Carlson with the
 * Fritsch–Butland weighted harmonic mean), in float64, with the same node derivatives, end
 * conditions and extrapolation as scipy's `PchipInterpolator`.
 */
export interface Pchip {
  /** The nodes, strictly increasing, `(nodes)`. */
  readonly x: Float64Array;
  /** The values at the nodes, `(nodes)`. */
  readonly y: Float64Array;
  /** The derivative at each node, `(nodes)`. */
  readonly slopes: Float64Array;
  /**
   * The interpolant at `t`. Outside `[x₀, x_last]` the first or last cubic piece is continued
   * (scipy's default `extrapolate=True`).
   */
  evaluate(t: number): number;
  /** The first derivative of the interpolant at `t`. */
  derivative(t: number): number;
}

/**
 * Builds the PCHIP interpolant through `(x, y)`.
 *
 * Node derivatives d_k, with h_k = x_{k+1} − x_k and secants m_k = (y_{k+1} − y_k)/h_k:
 *
 * - interior nodes: d_k = 0 where m_{k−1} and m_k differ in sign or either is zero; otherwise
 *   the weighted harmonic mean (w₁ + w₂)/d_k = w₁/m_{k−1} + w₂/m_k with w₁ = 2h_k + h_{k−1},
 *   w₂ = h_k + 2h_{k−1};
 * - end nodes: the one-sided three-point estimate d = ((2h₀ + h₁)m₀ − h₀m₁)/(h₀ + h₁), set to 0
 *   if its sign differs from m₀'s, and to 3m₀ if m₀ and m₁ differ in sign and |d| > 3|m₀|;
 * - two nodes: the straight line (d₀ = d₁ = m₀).
 *
 * The result is monotone wherever the data are, and passes through every node.
 *
 * @param x - the nodes, strictly increasing, at least 2
 * @param y - the values, same length as `x`
 */
export function createPchip(x: ArrayLike<number>, y: ArrayLike<number>): Pchip {
  const nodes = Float64Array.from(x);
  const values = Float64Array.from(y);
  checkNodes(nodes, values);
  const slopes = nodeSlopes(nodes, values);
  const last = nodes.length - 2;

  const piece = (t: number): number => {
    let low = 0;
    let high = last;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (nodes[middle] <= t) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const coefficients = (k: number) => {
    const h = nodes[k + 1] - nodes[k];
    const secant = (values[k + 1] - values[k]) / h;
    const d0 = slopes[k];
    const d1 = slopes[k + 1];
    return {
      offset: nodes[k],
      c0: values[k],
      c1: d0,
      c2: (3 * secant - 2 * d0 - d1) / h,
      c3: (d0 + d1 - 2 * secant) / (h * h),
    };
  };

  return {
    x: nodes,
    y: values,
    slopes,
    evaluate(t) {
      const { offset, c0, c1, c2, c3 } = coefficients(piece(t));
      const s = t - offset;
      return c0 + s * (c1 + s * (c2 + s * c3));
    },
    derivative(t) {
      const { offset, c1, c2, c3 } = coefficients(piece(t));
      const s = t - offset;
      return c1 + s * (2 * c2 + 3 * s * c3);
    },
  };
}

function checkNodes(x: Float64Array, y: Float64Array): void {
  if (x.length !== y.length) {
    throw new ShapeError({ quantity: 'pchip values', expected: [x.length], actual: [y.length] });
  }
  if (x.length < 2) {
    throw new InvalidArgumentError({
      argument: 'pchip nodes',
      problem: `expected at least 2 nodes, got ${x.length}`,
    });
  }
  for (let k = 0; k < x.length; k++) {
    if (!Number.isFinite(x[k]) || !Number.isFinite(y[k])) {
      throw new InvalidArgumentError({
        argument: 'pchip nodes',
        problem: `node ${k} is not finite: (${x[k]}, ${y[k]})`,
      });
    }
    if (k > 0 && !(x[k] > x[k - 1])) {
      throw new InvalidArgumentError({
        argument: 'pchip nodes',
        problem: `expected strictly increasing nodes, got x[${k - 1}] = ${x[k - 1]} ≥ x[${k}] = ${x[k]}`,
      });
    }
  }
}

function nodeSlopes(x: Float64Array, y: Float64Array): Float64Array {
  const n = x.length;
  const h = new Float64Array(n - 1);
  const m = new Float64Array(n - 1);
  for (let k = 0; k < n - 1; k++) {
    h[k] = x[k + 1] - x[k];
    m[k] = (y[k + 1] - y[k]) / h[k];
  }
  const slopes = new Float64Array(n);
  if (n === 2) {
    slopes.fill(m[0]);
    return slopes;
  }
  for (let k = 1; k < n - 1; k++) {
    const before = m[k - 1];
    const after = m[k];
    if (before === 0 || after === 0 || Math.sign(before) !== Math.sign(after)) continue;
    const w1 = 2 * h[k] + h[k - 1];
    const w2 = h[k] + 2 * h[k - 1];
    slopes[k] = (w1 + w2) / (w1 / before + w2 / after);
  }
  slopes[0] = endSlope(h[0], h[1], m[0], m[1]);
  slopes[n - 1] = endSlope(h[n - 2], h[n - 3], m[n - 2], m[n - 3]);
  return slopes;
}

function endSlope(h0: number, h1: number, m0: number, m1: number): number {
  const estimate = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);
  if (Math.sign(estimate) !== Math.sign(m0)) return 0;
  if (Math.sign(m0) !== Math.sign(m1) && Math.abs(estimate) > 3 * Math.abs(m0)) return 3 * m0;
  return estimate;
}
