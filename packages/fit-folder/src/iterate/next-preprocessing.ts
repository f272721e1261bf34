import { InvalidArgumentError, findFitBasis, type Runcard } from '@partonfit/core';
import type { ReplicasAtScale } from '../folder/fit-replicas-at-q0.js';
import { effectiveExponentGrid, exponentBands, type ExponentBand } from './effective-exponents.js';

/** A preprocessing range `[low, high]` of a runcard's `fitting.basis`. */
export type PreprocessingRange = readonly [number, number];

/**
 * A preprocessing range as the iteration's tables write it (`partonfit iterate`, the report's
 * effective exponents): `[low, high]` with the numbers as they are, or `—` for none (a range
 * kept, or `largex` with `feature_scaling_points`).
 */
export function preprocessingRangeText(range: PreprocessingRange | undefined): string {
  return range === undefined ? '—' : `[${range[0]}, ${range[1]}]`;
}

/**
 * Where the next small-x range is read, upstream's defaults (validphys
 * `next_effective_exponents_table`, `x1_alpha`, `x2_alpha`): x = 10⁻⁶ and 10⁻³.
 */
export const SMALL_X_POINTS: readonly [number, number] = [1e-6, 1e-3];

/**
 * Where the next large-x range is read, upstream's defaults (`x1_beta`, `x2_beta`): x = 0.65
 * and 0.95.
 */
export const LARGE_X_POINTS: readonly [number, number] = [0.65, 0.95];

/** The largest α the next range may reach (upstream's `min(2, …)`). */
export const ALPHA_CEILING = 2;

/** The smallest β the next range may start at (upstream's `max(0, …)`). */
export const BETA_FLOOR = 0;

/**
 * The fitted flavours whose whole small-x range vp-nextfitruncard keeps at or below 1, so that
 * x·f stays integrable (its `PREPROCESSING_LIMS`): V, V3, V8, T3, T8.
 */
export const INTEGRABLE_ALPHA_CEILING: Readonly<Record<string, number>> = {
  v: 1,
  v3: 1,
  v8: 1,
  t3: 1,
  t8: 1,
};

/** The flavours whose small-x range is read at the smallest x only: Σ and g. */
const SMALLEST_X_ONLY: ReadonlySet<string> = new Set(['sng', 'g']);

/** The significant digits of the proposed ranges (validphys rounds with `significant_digits`). */
export const RANGE_SIGNIFICANT_DIGITS = 4;

/**
 * `value` rounded to `digits` significant digits, ties to even, of the float's exact value — as
 * Python's `decimal` rounds in validphys's `significant_digits` (2.5625 → 2.562, where
 * `toPrecision` would give 2.563).
 */
export function significantDigits(value: number, digits: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  // 25 significant digits tell an exact tie from any float next to it (floats have ~17)
  const [mantissa, exponent] = Math.abs(value).toExponential(24).split('e');
  const all = mantissa.replace('.', '');
  const kept = Number(all.slice(0, digits));
  const rest = all.slice(digits);
  const beyondHalf = rest[0] > '5' || (rest[0] === '5' && /[1-9]/.test(rest.slice(1)));
  const tie = /^50*$/.test(rest);
  const last = beyondHalf || (tie && kept % 2 === 1) ? kept + 1 : kept;
  const sign = value < 0 ? '-' : '';
  return Number(`${sign}${last}e${Number(exponent) - digits + 1}`);
}

/** [mean − 2·(mean − lower68), mean + 2·(upper68 − mean)]: the 68 % interval doubled about the mean. */
function doubled(band: ExponentBand): PreprocessingRange {
  return [band.mean - 2 * (band.mean - band.lower68), band.mean + 2 * (band.upper68 - band.mean)];
}

function rounded([low, high]: PreprocessingRange): PreprocessingRange | undefined {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return undefined;
  return [
    significantDigits(low, RANGE_SIGNIFICANT_DIGITS),
    significantDigits(high, RANGE_SIGNIFICANT_DIGITS),
  ];
}

/**
 * The next small-x (α) range of a fitted flavour from its effective exponent's bands at
 * {@link SMALL_X_POINTS}, upstream's rule (validphys `next_effective_exponents_table` and
 * vp-nextfitruncard): with D(x) = [m − 2(m − l₆₈), m + 2(u₆₈ − m)] the 68 % interval doubled
 * about the mean m at x,
 *
 * - Σ and g: [low of D(10⁻⁶), min(2, high of D(10⁻⁶))];
 * - the others: [min of the lows of D(10⁻⁶), D(10⁻³), min(2, max of their highs)];
 * - V, V3, V8, T3, T8: both ends then at most 1 ({@link INTEGRABLE_ALPHA_CEILING});
 *
 * rounded to 4 significant digits.
 *
 * @param flavour - the runcard's `fl` name
 * @param bands - the bands at x = 10⁻⁶ and 10⁻³
 * @returns the range, or undefined when an exponent is not finite (the flavour is 0 there)
 */
export function nextSmallxRange(
  flavour: string,
  bands: readonly [ExponentBand, ExponentBand],
): PreprocessingRange | undefined {
  const ranges = (SMALLEST_X_ONLY.has(flavour) ? bands.slice(0, 1) : bands).map(doubled);
  const ceiling = INTEGRABLE_ALPHA_CEILING[flavour] ?? Number.POSITIVE_INFINITY;
  const low = Math.min(...ranges.map(([lower]) => lower));
  const high = Math.min(ALPHA_CEILING, Math.max(...ranges.map(([, upper]) => upper)));
  return rounded([Math.min(low, ceiling), Math.min(high, ceiling)]);
}

/**
 * The next large-x (β) range of a fitted flavour from its effective exponent's bands at
 * {@link LARGE_X_POINTS}, upstream's rule: with D(x) the doubled 68 % interval as in
 * {@link nextSmallxRange}, [max(0, min of the lows of D(0.65), D(0.95)), max of their highs],
 * rounded to 4 significant digits.
 *
 * @returns the range, or undefined when an exponent is not finite (the flavour is 0 there)
 */
export function nextLargexRange(
  bands: readonly [ExponentBand, ExponentBand],
): PreprocessingRange | undefined {
  const ranges = bands.map(doubled);
  return rounded([
    Math.max(BETA_FLOOR, Math.min(...ranges.map(([lower]) => lower))),
    Math.max(...ranges.map(([, upper]) => upper)),
  ]);
}

/** One fitted flavour's preprocessing: the ranges the fit used and the ranges proposed. */
export interface FlavourPreprocessing {
  /** The runcard's `fl` name. */
  readonly flavour: string;
  /** The runcard's ranges; `largex` undefined with `feature_scaling_points`. */
  readonly used: { readonly smallx: PreprocessingRange; readonly largex?: PreprocessingRange };
  /**
   * The proposed ranges; undefined where none can be proposed (a flavour that is 0, or no
   * `largex` with `feature_scaling_points`): the runcard's range stays.
   */
  readonly proposed: {
    readonly smallx: PreprocessingRange | undefined;
    readonly largex: PreprocessingRange | undefined;
  };
  /** α_eff over the replicas at {@link SMALL_X_POINTS}. */
  readonly smallx: readonly [ExponentBand, ExponentBand];
  /** β_eff over the replicas at {@link LARGE_X_POINTS}. */
  readonly largex: readonly [ExponentBand, ExponentBand];
}

/**
 * The next preprocessing ranges of every fitted flavour of a fit, in its runcard's
 * `fitting.basis` order: the effective exponents of its replicas at the fitting scale at
 * {@link SMALL_X_POINTS} and {@link LARGE_X_POINTS}, and {@link nextSmallxRange} and
 * {@link nextLargexRange} of them. With `parameters.feature_scaling_points` no large-x range is
 * proposed (none is used), as upstream drops `largex` then.
 *
 * @param pdf - the fit's replicas at Q0 (its exportgrids)
 * @param runcard - the fit's runcard
 * @throws InvalidArgumentError for a fit basis partonfit does not know; what
 *   {@link effectiveExponentGrid} throws
 */
export function nextPreprocessing(pdf: ReplicasAtScale, runcard: Runcard): FlavourPreprocessing[] {
  const { fitting, parameters } = runcard;
  const basis = findFitBasis(fitting.fitbasis);
  if (basis === undefined) {
    throw new InvalidArgumentError({
      argument: 'fitting.fitbasis',
      problem: `unknown fit basis '${fitting.fitbasis}'`,
    });
  }
  const flavours = fitting.basis.map((entry) => entry.fl);
  const count = flavours.length;
  const alpha = exponentBands(effectiveExponentGrid(pdf, basis, flavours, 'alpha', SMALL_X_POINTS));
  const beta = exponentBands(effectiveExponentGrid(pdf, basis, flavours, 'beta', LARGE_X_POINTS));
  const scaled = parameters.feature_scaling_points !== undefined;
  return fitting.basis.map((entry, f) => {
    const smallx = [alpha[f], alpha[count + f]] as const;
    const largex = [beta[f], beta[count + f]] as const;
    return {
      flavour: entry.fl,
      used: {
        smallx: entry.smallx,
        ...(scaled || entry.largex === undefined ? {} : { largex: entry.largex }),
      },
      proposed: {
        smallx: nextSmallxRange(entry.fl, smallx),
        largex: scaled ? undefined : nextLargexRange(largex),
      },
      smallx,
      largex,
    };
  });
}
