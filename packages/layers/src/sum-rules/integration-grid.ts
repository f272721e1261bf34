import { gaussLegendre, InvalidArgumentError, ShapeError } from '@partonfit/core';

/** Where the small-x (logarithmic) part of a grid ends and the linear part begins. */
export const INTEGRATION_SPLIT_X = 0.1;

/** The smallest x of the integration grids: the sum rules ignore ∫₀^{10⁻⁹}. */
export const INTEGRATION_SMALLEST_X = 1e-9;

/** How an integration grid is made; stored in a layer's config to rebuild it. */
export type IntegrationGridSpec =
  /** Upstream's grid (`gen_integration_input`): trapezoid-like weights, 2000 points by default. */
  | { readonly kind: 'nnpdf'; readonly points: number }
  /**
   * Gauss–Legendre in log x on [10⁻⁹, 0.1] (`smallXPoints` nodes, default half) and in x on
   * [0.1, 1] (the rest).
   */
  | { readonly kind: 'gauss-legendre'; readonly points: number; readonly smallXPoints?: number }
  /** Any nodes and weights. */
  | { readonly kind: 'custom'; readonly x: readonly number[]; readonly weights: readonly number[] };

/** Nodes and weights such that ∫ f(x) dx ≈ Σ_i weights[i] · f(x[i]). */
export interface IntegrationGrid {
  /** How it was made. */
  readonly spec: IntegrationGridSpec;
  /** The nodes, `(points)`, each in (0, 1]. */
  readonly x: Float64Array;
  /** The weights, `(points)`. */
  readonly weights: Float64Array;
}

/**
 * Upstream n3fit's integration grid: `points/2` nodes `logspace(−9, −1, points/2 + 1)` without
 * its last, then `linspace(0.1, 1, points − points/2)`; weight w_i = (|x_i − x_{i−1}| +
 * |x_{i+1} − x_i|)/2 with zero spacing beyond both ends (the trapezoid rule in x).
 */
export function nnpdfIntegrationGrid(points = 2000): IntegrationGrid {
  checkPoints(points, 4);
  const logPoints = Math.floor(points / 2);
  const linearPoints = points - logPoints;
  const x = new Float64Array(points);
  const logStep = 8 / logPoints;
  for (let i = 0; i < logPoints; i++) x[i] = 10 ** (-9 + i * logStep);
  const linearStep = (1 - INTEGRATION_SPLIT_X) / (linearPoints - 1);
  for (let i = 0; i < linearPoints; i++) {
    x[logPoints + i] = i === linearPoints - 1 ? 1 : INTEGRATION_SPLIT_X + i * linearStep;
  }
  const weights = new Float64Array(points);
  for (let i = 0; i < points; i++) {
    const before = i === 0 ? 0 : Math.abs(x[i] - x[i - 1]);
    const after = i === points - 1 ? 0 : Math.abs(x[i + 1] - x[i]);
    weights[i] = (before + after) / 2;
  }
  return { spec: { kind: 'nnpdf', points }, x, weights };
}

/**
 * A Gauss–Legendre grid: `smallXPoints` nodes of the rule in t = log x on [10⁻⁹, 0.1] (weights
 * ω·x, from dx = x dt) and the remaining nodes of the rule in x on [0.1, 1]. Exact for
 * integrands polynomial in log x (resp. x) up to degree 2n − 1 in each part; the PDF's
 * x^(1−α) behaviour is smooth in log x, its (1 − x)^β end is what needs points at large x.
 */
export function gaussIntegrationGrid(
  points: number,
  smallXPoints = Math.floor(points / 2),
): IntegrationGrid {
  checkPoints(points, 2);
  if (!Number.isInteger(smallXPoints) || smallXPoints < 1 || smallXPoints >= points) {
    throw new InvalidArgumentError({
      argument: 'smallXPoints',
      problem: `expected an integer between 1 and ${points - 1}, got ${smallXPoints}`,
    });
  }
  const small = gaussLegendre(
    smallXPoints,
    Math.log(INTEGRATION_SMALLEST_X),
    Math.log(INTEGRATION_SPLIT_X),
  );
  const large = gaussLegendre(points - smallXPoints, INTEGRATION_SPLIT_X, 1);
  const x = new Float64Array(points);
  const weights = new Float64Array(points);
  small.nodes.forEach((t, i) => {
    x[i] = Math.exp(t);
    weights[i] = small.weights[i] * x[i];
  });
  x.set(large.nodes, smallXPoints);
  weights.set(large.weights, smallXPoints);
  return { spec: { kind: 'gauss-legendre', points, smallXPoints }, x, weights };
}

/** The grid a spec describes (see {@link IntegrationGridSpec}). */
export function integrationGrid(spec: IntegrationGridSpec): IntegrationGrid {
  switch (spec.kind) {
    case 'nnpdf':
      return nnpdfIntegrationGrid(spec.points);
    case 'gauss-legendre':
      return gaussIntegrationGrid(spec.points, spec.smallXPoints);
    case 'custom':
      return customIntegrationGrid(spec.x, spec.weights);
  }
}

/** A grid from given nodes and weights, checked: same length, finite, x in (0, 1]. */
export function customIntegrationGrid(
  x: ArrayLike<number>,
  weights: ArrayLike<number>,
): IntegrationGrid {
  if (x.length !== weights.length) {
    throw new ShapeError({
      quantity: 'integration weights',
      expected: [x.length],
      actual: [weights.length],
    });
  }
  checkPoints(x.length, 1);
  for (let i = 0; i < x.length; i++) {
    if (!(x[i] > 0 && x[i] <= 1) || !Number.isFinite(weights[i])) {
      throw new InvalidArgumentError({
        argument: `integration grid point ${i}`,
        problem: `expected x in (0, 1] and a finite weight, got x = ${x[i]}, weight = ${weights[i]}`,
      });
    }
  }
  return {
    spec: { kind: 'custom', x: Array.from(x), weights: Array.from(weights) },
    x: Float64Array.from(x),
    weights: Float64Array.from(weights),
  };
}

function checkPoints(points: number, minimum: number): void {
  if (!Number.isInteger(points) || points < minimum) {
    throw new InvalidArgumentError({
      argument: 'points',
      problem: `expected an integer of at least ${minimum}, got ${points}`,
    });
  }
}
