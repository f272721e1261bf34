import { InvalidArgumentError } from '@partonfit/core';

/**
 * The x-interpolation that turns PDF values at points into FK-table entries: x·f(x) ≈
 * Σ_a I_a(x) · x·f(x_a) on an x-grid, with I_a piecewise Lagrange polynomials in
 * y(x) = ln x − 5 ln(1 − x).
 *
 * y behaves like ln x at small x (PDFs go like x^α there) and like −5 ln(1 − x) near x = 1 (PDFs
 * go like (1 − x)^β there), so nodes equally spaced in y are logarithmic at small x and
 * crowd towards x = 1, where x·f changes fastest relative to its size. With the closure grid
 * (50 nodes, 10⁻⁵ … 0.9) and degree 5, the toy PDF's flavours are interpolated over
 * x ∈ [10⁻⁴, 0.8] to a worst relative error of 3.0·10⁻⁵ (u_v), 3.6·10⁻⁵ (d_v), 2.9·10⁻⁵ (g),
 * 9.5·10⁻⁵ (d̄), 1.2·10⁻⁴ (s) and 2.5·10⁻⁴ (ū, at x ≈ 0.79 where x·ū ≈ 10⁻⁶). Degree 3 on the
 * same nodes gives 5·10⁻⁴ … 4·10⁻³, and nodes equally spaced in ln x alone give errors of order
 * one near x = 0.8.
 *
 * @packageDocumentation
 */

/** Degree of the Lagrange polynomials: each point reads `degree + 1` consecutive nodes. */
export const INTERPOLATION_DEGREE = 5;

/** The interpolation variable y(x) = ln x − 5 ln(1 − x), increasing on (0, 1). */
export function interpolationVariable(x: number): number {
  return Math.log(x) - 5 * Math.log1p(-x);
}

/** Options of {@link interpolationXGrid}. */
export interface InterpolationXGridOptions {
  /** The smallest node. */
  readonly xMin: number;
  /** The largest node, below 1. */
  readonly xMax: number;
  /** Number of nodes, at least `INTERPOLATION_DEGREE + 1`. */
  readonly nodes: number;
}

/** Bisection steps in ln x: enough to pin a double between 10⁻³⁰⁰ and 1. */
const BISECTION_STEPS = 200;

/** The x with y(x) = target, by bisection in ln x between `low` and `high`. */
function invertVariable(target: number, low: number, high: number): number {
  let lowLog = Math.log(low);
  let highLog = Math.log(high);
  for (let step = 0; step < BISECTION_STEPS && highLog - lowLog > 0; step++) {
    const middle = 0.5 * (lowLog + highLog);
    if (middle === lowLog || middle === highLog) break;
    if (interpolationVariable(Math.exp(middle)) < target) lowLog = middle;
    else highLog = middle;
  }
  return Math.exp(0.5 * (lowLog + highLog));
}

/**
 * An x-grid whose nodes are equally spaced in y(x) = ln x − 5 ln(1 − x) from `xMin` to `xMax`
 * (both included exactly).
 *
 * @returns the nodes, shape `(x)`, increasing
 * @throws InvalidArgumentError - unless 0 < xMin < xMax < 1 and `nodes` is an integer of at
 *   least `INTERPOLATION_DEGREE + 1`
 */
export function interpolationXGrid(options: InterpolationXGridOptions): Float64Array {
  const { xMin, xMax, nodes } = options;
  if (!(xMin > 0 && xMin < xMax && xMax < 1)) {
    throw new InvalidArgumentError({
      argument: 'xMin, xMax',
      problem: `expected 0 < xMin < xMax < 1, got ${xMin}, ${xMax}`,
    });
  }
  if (!Number.isInteger(nodes) || nodes <= INTERPOLATION_DEGREE) {
    throw new InvalidArgumentError({
      argument: 'nodes',
      problem: `expected an integer of at least ${INTERPOLATION_DEGREE + 1}, got ${nodes}`,
    });
  }
  const first = interpolationVariable(xMin);
  const last = interpolationVariable(xMax);
  return Float64Array.from({ length: nodes }, (_, a) => {
    if (a === 0) return xMin;
    if (a === nodes - 1) return xMax;
    return invertVariable(first + ((last - first) * a) / (nodes - 1), xMin, xMax);
  });
}

/** The interpolation weights of one point: `weights[k]` belongs to node `start + k`. */
export interface InterpolationWeights {
  /** The first node the point reads. */
  readonly start: number;
  /** The weights I_a(x) of nodes `start … start + INTERPOLATION_DEGREE`, shape `(node)`. */
  readonly weights: Float64Array;
}

/**
 * The weights I_a(x) with x·f(x) ≈ Σ_a I_a(x) · x·f(x_a): the Lagrange polynomials in y of the
 * `INTERPOLATION_DEGREE + 1` nodes around x (the two nodes of the interval holding x and two
 * more on each side, shifted inwards at the ends of the grid). At a node the weight is exactly 1
 * there and 0 elsewhere; the weights sum to 1 and reproduce every polynomial of degree ≤ 5 in y.
 *
 * @param xGrid - the nodes, shape `(x)`, increasing, in (0, 1), at least
 *   `INTERPOLATION_DEGREE + 1` of them
 * @param x - the point, inside `[xGrid[0], xGrid[last]]`
 * @throws InvalidArgumentError - for a grid that is too short, not increasing or not in (0, 1),
 *   or a point outside it
 */
export function interpolationWeights(xGrid: Float64Array, x: number): InterpolationWeights {
  checkGrid(xGrid);
  const nx = xGrid.length;
  if (!(x >= xGrid[0] && x <= xGrid[nx - 1])) {
    throw new InvalidArgumentError({
      argument: 'x',
      problem: `${x} is outside the x-grid [${xGrid[0]}, ${xGrid[nx - 1]}]`,
    });
  }
  let interval = 0;
  while (interval < nx - 2 && xGrid[interval + 1] <= x) interval++;
  const below = Math.floor((INTERPOLATION_DEGREE - 1) / 2);
  const start = Math.min(Math.max(interval - below, 0), nx - INTERPOLATION_DEGREE - 1);
  const nodes = Array.from({ length: INTERPOLATION_DEGREE + 1 }, (_, k) =>
    interpolationVariable(xGrid[start + k]),
  );
  const y = interpolationVariable(x);
  const weights = Float64Array.from(nodes, (node, k) => {
    let weight = 1;
    nodes.forEach((other, j) => {
      if (j !== k) weight *= (y - other) / (node - other);
    });
    return weight;
  });
  return { start, weights };
}

function checkGrid(xGrid: Float64Array): void {
  if (xGrid.length <= INTERPOLATION_DEGREE) {
    throw new InvalidArgumentError({
      argument: 'xGrid',
      problem: `has ${xGrid.length} nodes, interpolation of degree ${INTERPOLATION_DEGREE} needs at least ${INTERPOLATION_DEGREE + 1}`,
    });
  }
  xGrid.forEach((x, a) => {
    if (!(x > 0 && x < 1) || (a > 0 && !(x > xGrid[a - 1]))) {
      throw new InvalidArgumentError({
        argument: 'xGrid',
        problem: `node ${a} (x = ${x}) is not in (0, 1) or not above the node before`,
      });
    }
  });
}
