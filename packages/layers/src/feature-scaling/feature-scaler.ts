import { InvalidArgumentError } from '@partonfit/core';
import { createPchip, type Pchip } from './pchip.js';

/** The smallest x the scaled feature is anchored at (mapped to −1) when the data start above. */
export const FEATURE_SCALING_SMALLEST_X = 1e-9;

/**
 * n3fit's feature scaling (`parameters.feature_scaling_points`): a monotone map of x ∈ (0, 1]
 * onto [−1, 1] that spreads the FK x-values evenly, built once at set-up.
 */
export interface FeatureScaler {
  /** The `feature_scaling_points` it was built with. */
  readonly points: number;
  /** The interpolation nodes: x, increasing, `(nodes)`. */
  readonly nodeX: Float64Array;
  /** The value in [0, 1] each node is mapped to before the final `2·y − 1`, `(nodes)`. */
  readonly nodeValue: Float64Array;
  /** The PCHIP interpolant in log x through `(log nodeX, nodeValue)`. */
  readonly interpolant: Pchip;
  /** s(x) = 2·pchip(log x) − 1 for one x > 0. */
  scale(x: number): number;
  /** s(x) for every x, `(points)`. */
  scaleAll(x: ArrayLike<number>): Float64Array;
}

/**
 * Builds the feature scaler from every x-value of every FK table of the fit (duplicates
 * included: they weigh where the grid is dense), following upstream's `generate_scaler`:
 *
 * 1. Sort all N values. They are mapped onto an evenly spaced grid in [0, 1]: `linspace(1/N, 1,
 *    N)` if the smallest x is above 10⁻⁹, else `linspace(0, 1, N)`; the grid includes 1 only if
 *    some x equals 1 (numpy's `endpoint`).
 * 2. Each distinct value u_j goes to grid entry C_j − c₀, where C_j is the cumulative count of
 *    values ≤ u_j and c₀ the count of the smallest value.
 * 3. If the smallest x is above 10⁻⁹, the node (10⁻⁹, 0) is put in front.
 * 4. Of these M nodes, keep indices round(i·M/(k−1) − 1) for i = 1…k−1 (Python's round half to
 *    even), index 0 if not already there, and index 1 (upstream keeps it because 10⁻⁹ is an
 *    outlier).
 * 5. Interpolate the kept nodes with PCHIP in log x: s(x) = 2·pchip(log x) − 1, continued by
 *    the end cubics outside the nodes.
 *
 * @param xValues - the FK x-values, one array or one per FK table; each x in (0, 1]
 * @param points - `feature_scaling_points` (k): at least 2, at most the number of nodes M
 */
export function featureScaler(
  xValues: ArrayLike<number> | readonly ArrayLike<number>[],
  points: number,
): FeatureScaler {
  const sorted = sortedValues(xValues);
  if (!Number.isInteger(points) || points < 2) {
    throw new InvalidArgumentError({
      argument: 'feature_scaling_points',
      problem: `expected an integer of at least 2, got ${points}`,
    });
  }
  const { from, to } = mapToEvenGrid(sorted);
  const kept = keptNodeIndices(from.length, points);
  const nodeX = Float64Array.from(kept, (index) => from[index] ?? Number.NaN);
  const nodeValue = Float64Array.from(kept, (index) => to[index] ?? Number.NaN);
  const interpolant = createPchip(
    nodeX.map((x) => Math.log(x)),
    nodeValue,
  );
  const scale = (x: number) => 2 * interpolant.evaluate(Math.log(x)) - 1;
  return {
    points,
    nodeX,
    nodeValue,
    interpolant,
    scale,
    scaleAll: (x) => Float64Array.from(x, scale),
  };
}

function sortedValues(xValues: ArrayLike<number> | readonly ArrayLike<number>[]): Float64Array {
  const arrays: readonly ArrayLike<number>[] = isArrayOfArrays(xValues) ? xValues : [xValues];
  const total = arrays.reduce((sum, array) => sum + array.length, 0);
  if (total === 0) {
    throw new InvalidArgumentError({ argument: 'xValues', problem: 'no x-values given' });
  }
  const all = new Float64Array(total);
  let position = 0;
  arrays.forEach((array, table) => {
    for (let i = 0; i < array.length; i++) {
      const x = array[i] ?? Number.NaN;
      if (!(x > 0 && x <= 1)) {
        throw new InvalidArgumentError({
          argument: arrays.length > 1 ? `xValues[${table}][${i}]` : `xValues[${i}]`,
          problem: `expected an x in (0, 1], got ${x}`,
        });
      }
      all[position++] = x;
    }
  });
  return all.sort();
}

function isArrayOfArrays(
  xValues: ArrayLike<number> | readonly ArrayLike<number>[],
): xValues is readonly ArrayLike<number>[] {
  return xValues.length > 0 && typeof xValues[0] === 'object';
}

/** Steps 1–3: the distinct x-values and where each lands on the even grid in [0, 1]. */
function mapToEvenGrid(sorted: Float64Array): { from: number[]; to: number[] } {
  const total = sorted.length;
  const forceSmallest = sorted[0] > FEATURE_SCALING_SMALLEST_X;
  const includeEndpoint = sorted[total - 1] === 1;
  const start = forceSmallest ? 1 / total : 0;
  const step = (1 - start) / (includeEndpoint ? total - 1 : total);
  const gridValue = (i: number) =>
    includeEndpoint && i === total - 1 ? 1 : total === 1 ? start : i * step + start;

  const from: number[] = forceSmallest ? [FEATURE_SCALING_SMALLEST_X] : [];
  const to: number[] = forceSmallest ? [0] : [];
  let smallestCount = 0;
  let i = 0;
  while (i < total) {
    let j = i;
    while (j < total && sorted[j] === sorted[i]) j++;
    if (i === 0) smallestCount = j;
    from.push(sorted[i] ?? Number.NaN);
    to.push(gridValue(j - smallestCount));
    i = j;
  }
  return { from, to };
}

/** Step 4: the indices of the M nodes the interpolant keeps, increasing. */
function keptNodeIndices(nodes: number, points: number): number[] {
  if (points > nodes) {
    throw new InvalidArgumentError({
      argument: 'feature_scaling_points',
      problem: `${points} is larger than the number of distinct x-values (${nodes}, counting 1e-9)`,
    });
  }
  const spacing = nodes / (points - 1);
  const selected = new Set<number>([0, 1]);
  for (let i = 1; i < points; i++) selected.add(roundHalfToEven(i * spacing - 1));
  return [...selected].filter((index) => index >= 0 && index < nodes).sort((a, b) => a - b);
}

/** Python 3's `round`: to the nearest integer, ties to even. */
export function roundHalfToEven(value: number): number {
  const floor = Math.floor(value);
  const difference = value - floor;
  if (difference < 0.5) return floor;
  if (difference > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}
