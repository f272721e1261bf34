import { InvalidArgumentError } from '../errors/index.js';
import { positiveInteger } from '../validate/index.js';

/** Gauss–Legendre nodes and weights on an interval, float64, nodes increasing. */
export interface QuadratureRule {
  /** `(points)`. */
  readonly nodes: Float64Array;
  /** `(points)`. */
  readonly weights: Float64Array;
}

/**
 * The `points`-point Gauss–Legendre rule on [low, high]: exact for polynomials of degree up to
 * 2·points − 1. Nodes are the roots of the Legendre polynomial P_n found by Newton's method from
 * the estimate cos(π(i − ¼)/(n + ½)); weights are 2/((1 − t²) P_n'(t)²), scaled to the interval.
 */
export function gaussLegendre(points: number, low: number, high: number): QuadratureRule {
  positiveInteger(points, 'points');
  if (!(Number.isFinite(low) && Number.isFinite(high) && low < high)) {
    throw new InvalidArgumentError({
      argument: 'interval',
      problem: `expected finite low < high, got [${low}, ${high}]`,
    });
  }
  const nodes = new Float64Array(points);
  const weights = new Float64Array(points);
  const half = (high - low) / 2;
  const middle = (high + low) / 2;
  for (let i = 0; i < Math.ceil(points / 2); i++) {
    let t = Math.cos((Math.PI * (i + 0.75)) / (points + 0.5));
    for (let iteration = 0; iteration < 100; iteration++) {
      const { value, slope } = legendre(points, t);
      const step = value / slope;
      t -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    const derivative = legendre(points, t).slope;
    const weight = (2 / ((1 - t * t) * derivative * derivative)) * half;
    nodes[i] = middle - half * t;
    nodes[points - 1 - i] = middle + half * t;
    weights[i] = weight;
    weights[points - 1 - i] = weight;
  }
  return { nodes, weights };
}

/** P_n(t) and P_n'(t) by the three-term recurrence. */
function legendre(n: number, t: number): { value: number; slope: number } {
  let previous = 1;
  let current = t;
  if (n === 0) return { value: 1, slope: 0 };
  for (let k = 2; k <= n; k++) {
    const next = ((2 * k - 1) * t * current - (k - 1) * previous) / k;
    previous = current;
    current = next;
  }
  return { value: current, slope: (n * (t * current - previous)) / (t * t - 1) };
}
