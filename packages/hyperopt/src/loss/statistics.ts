import type { HyperStatistic } from '@partonfit/core';

/** A statistic over replicas or folds (n3fit's `IMPLEMENTED_STATS`). */
export function statistic(name: HyperStatistic): (values: readonly number[]) => number {
  switch (name) {
    case 'average':
    case 'average_best':
      return (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    case 'best_worst':
      return (values) => Math.max(...values);
    case 'std':
      return (values) => {
        const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
        const variance =
          values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
        return Math.sqrt(variance);
      };
  }
}

/**
 * The replicas whose validation loss is among the best `proportion` of them (n3fit's
 * `reduce_proportion`): the first ⌈proportion·R⌉ after sorting, ties in row order.
 */
export function bestReplicas(validation: ArrayLike<number>, proportion: number): number[] {
  const order = Array.from({ length: validation.length }, (_, r) => r).sort(
    (a, b) => sortKey(validation[a]) - sortKey(validation[b]) || a - b,
  );
  return order.slice(0, Math.ceil(proportion * validation.length));
}

/** A sort key that puts NaN last, as numpy's sort and argsort do. */
export function sortKey(value: number): number {
  return Number.isNaN(value) ? Number.POSITIVE_INFINITY : value;
}
