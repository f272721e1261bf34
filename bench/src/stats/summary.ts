import { InvalidArgumentError } from '@partonfit/core';

/** Summary statistics of repeated timings (or any sample), in the sample's unit. */
export interface SampleSummary {
  /** Number of values. */
  readonly count: number;
  readonly median: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  /** 10th percentile. */
  readonly p10: number;
  /** 90th percentile. */
  readonly p90: number;
  /** Interquartile range p75 − p25. */
  readonly iqr: number;
  /** Median absolute deviation from the median. */
  readonly mad: number;
}

/**
 * The q-quantile of ascending `sorted` values by linear interpolation between order statistics
 * (numpy's default, "type 7"): position q · (n − 1).
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) {
    throw new InvalidArgumentError({ argument: 'sorted', problem: 'expected at least one value' });
  }
  if (!(q >= 0 && q <= 1)) {
    throw new InvalidArgumentError({ argument: 'q', problem: `expected [0, 1], got ${q}` });
  }
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

/**
 * Median, mean, extremes, 10th/90th percentiles, interquartile range and median absolute
 * deviation of `values`.
 *
 * @throws InvalidArgumentError - for an empty sample or a value that is not finite
 */
export function summarize(values: readonly number[]): SampleSummary {
  if (values.length === 0) {
    throw new InvalidArgumentError({ argument: 'values', problem: 'expected at least one value' });
  }
  const bad = values.findIndex((value) => !Number.isFinite(value));
  if (bad !== -1) {
    throw new InvalidArgumentError({
      argument: `values[${bad}]`,
      problem: `expected a finite number, got ${values[bad]}`,
    });
  }
  const sorted = [...values].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const deviations = sorted.map((value) => Math.abs(value - median)).sort((a, b) => a - b);
  return {
    count: sorted.length,
    median,
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    p10: quantile(sorted, 0.1),
    p90: quantile(sorted, 0.9),
    iqr: quantile(sorted, 0.75) - quantile(sorted, 0.25),
    mad: quantile(deviations, 0.5),
  };
}
