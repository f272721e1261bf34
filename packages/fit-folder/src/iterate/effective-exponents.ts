import {
  FLAVOUR_BASIS,
  InputFileError,
  InvalidArgumentError,
  ShapeError,
  fitBasisFromFlavour,
  rotateFlavours,
  type FitBasisDefinition,
} from '@partonfit/core';
import { interpolateLogCubicX } from '@partonfit/io';
import type { ReplicasAtScale } from '../folder/fit-replicas-at-q0.js';

/** Which effective exponent: α at small x, β at large x. */
export type EffectiveExponent = 'alpha' | 'beta';

/**
 * The effective small-x exponent of one flavour at x, validphys's `alpha_eff`:
 *
 *     α_eff(x) = ln|f(x)| / ln(1/x),   f(x) = (x·f(x)) / x,
 *
 * so that f ∝ x^(−α) — n3fit's x·f = x^(1−α)(1−x)^β·NN(x) — has α_eff = α. The normalisation of
 * f is not taken out: a factor A adds ln A / ln(1/x).
 *
 * @param x - momentum fraction in (0, 1)
 * @param xf - x·f(x)
 * @returns α_eff, or NaN where f = 0 (no exponent)
 */
export function alphaEffective(x: number, xf: number): number {
  const f = Math.abs(xf / x);
  return f > 0 && Number.isFinite(f) ? -Math.log(f) / Math.log(x) : Number.NaN;
}

/**
 * The effective large-x exponent of one flavour at x, validphys's `beta_eff`:
 *
 *     β_eff(x) = ln|f(x)| / ln(1 − x),   f(x) = (x·f(x)) / x,
 *
 * so that f ∝ (1 − x)^β has β_eff = β. A small-x factor x^(−α) adds −α·ln x / ln(1 − x), which
 * vanishes only as x → 1.
 *
 * @param x - momentum fraction in (0, 1)
 * @param xf - x·f(x)
 * @returns β_eff, or NaN where f = 0 (no exponent)
 */
export function betaEffective(x: number, xf: number): number {
  const f = Math.abs(xf / x);
  return f > 0 && Number.isFinite(f) ? Math.log(f) / Math.log1p(-x) : Number.NaN;
}

/** The effective exponents of every replica and fitted flavour on a set of x points. */
export interface EffectiveExponentGrid {
  readonly exponent: EffectiveExponent;
  /** The x points (x). */
  readonly xGrid: Float64Array;
  /** The fitted flavours by their runcard `fl` names, in the order given. */
  readonly flavours: readonly string[];
  /** The exponents, (replicas, x, flavour) row-major; NaN where the flavour is 0. */
  readonly values: Float64Array;
  readonly replicas: number;
}

/**
 * The effective exponents α_eff ({@link alphaEffective}) or β_eff ({@link betaEffective}) of
 * every replica in the fit basis: each replica's x·f is interpolated from its x grid to `points`
 * (LHAPDF's log-cubic rule in x, what LHAPDF gives at Q0 for the evolved set), rotated to the
 * fitted flavours ({@link fitBasisFromFlavour}), and the exponent taken of each.
 *
 * @param pdf - the replicas at the fitting scale
 * @param basis - the fit basis
 * @param flavours - the fitted flavours, in the runcard's `fitting.basis` order
 * @param points - x values inside the replicas' x grid and below 1
 * @throws ShapeError when `pdf.xf` does not fit its grid; InvalidArgumentError for a point
 *   outside (0, 1), or outside the grid (InputFileError naming `pdf.gridFile` when given)
 */
export function effectiveExponentGrid(
  pdf: ReplicasAtScale,
  basis: FitBasisDefinition,
  flavours: readonly string[],
  exponent: EffectiveExponent,
  points: ArrayLike<number>,
): EffectiveExponentGrid {
  const lhaFlavours = FLAVOUR_BASIS.length;
  const size = pdf.xGrid.length * lhaFlavours;
  if (pdf.xf.length !== pdf.replicas * size) {
    throw new ShapeError({
      quantity: 'replicas x·f',
      expected: [pdf.replicas, pdf.xGrid.length, lhaFlavours],
      actual: [pdf.xf.length],
      axes: '(replicas, x, flavour)',
    });
  }
  const xGrid = Float64Array.from(points);
  const bad = xGrid.find((x) => !(x > 0 && x < 1));
  if (bad !== undefined) {
    throw new InvalidArgumentError({
      argument: 'points',
      problem: `effective exponents need 0 < x < 1, got ${bad}`,
    });
  }
  const [first, last] = [pdf.xGrid[0], pdf.xGrid[pdf.xGrid.length - 1]];
  const outside = xGrid.find((x) => x < first || x > last);
  if (outside !== undefined && pdf.gridFile !== undefined) {
    throw new InputFileError({
      file: pdf.gridFile,
      key: 'xgrid',
      problem: `spans x = ${first} … ${last}, but the effective exponents are read at x = ${outside}`,
    });
  }
  const rotation = fitBasisFromFlavour(basis, flavours);
  const effective = exponent === 'alpha' ? alphaEffective : betaEffective;
  const count = flavours.length;
  const values = new Float64Array(pdf.replicas * xGrid.length * count);
  for (let r = 0; r < pdf.replicas; r++) {
    const replica = pdf.xf.subarray(r * size, (r + 1) * size);
    const fitted = rotateFlavours(rotation, interpolateLogCubicX(pdf.xGrid, replica, xGrid));
    fitted.forEach((xf, i) => {
      values[r * fitted.length + i] = effective(xGrid[Math.floor(i / count)], xf);
    });
  }
  return { exponent, xGrid, flavours, values, replicas: pdf.replicas };
}

/** The spread of one effective exponent over the replicas. */
export interface ExponentBand {
  /** The mean over the replicas with a finite exponent. */
  readonly mean: number;
  /** The 15.87th and 84.13th percentiles: the 68 % confidence interval. */
  readonly lower68: number;
  readonly upper68: number;
  /** How many replicas have a finite exponent. */
  readonly replicas: number;
}

/**
 * The q-th percentile of sorted values, as numpy's `percentile` (its default `linear` method):
 * the value at rank q/100·(n − 1), interpolated linearly between the two neighbouring values.
 */
function percentile(sorted: readonly number[], q: number): number {
  const rank = (q / 100) * (sorted.length - 1);
  const below = Math.floor(rank);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (rank - below) * (sorted[above] - sorted[below]);
}

/**
 * The mean and 68 % confidence interval of values over replicas, as validphys's `MCStats`
 * computes them for the effective exponents: `nanmean`, and `nanpercentile` at 15.87 and 84.13
 * (numpy's linear interpolation between order statistics). Values that are not finite are left
 * out; with none left, every number is NaN.
 */
export function exponentBand(values: ArrayLike<number>): ExponentBand {
  const finite = Array.from(values)
    .filter((value) => Number.isFinite(value))
    .sort((a, b) => a - b);
  if (finite.length === 0) {
    return { mean: Number.NaN, lower68: Number.NaN, upper68: Number.NaN, replicas: 0 };
  }
  return {
    mean: finite.reduce((sum, value) => sum + value, 0) / finite.length,
    lower68: percentile(finite, 15.87),
    upper68: percentile(finite, 84.13),
    replicas: finite.length,
  };
}

/**
 * The band of every (x, flavour) of a grid, (x, flavour) row-major: `bands[ix * flavours + f]`.
 */
export function exponentBands(grid: EffectiveExponentGrid): ExponentBand[] {
  const count = grid.flavours.length;
  const points = grid.xGrid.length;
  return Array.from({ length: points * count }, (_, i) =>
    exponentBand(
      Array.from({ length: grid.replicas }, (_, r) => grid.values[r * points * count + i]),
    ),
  );
}
