import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { quantile, summarize } from './summary.js';

describe('quantile', () => {
  it('should interpolate between order statistics at q · (n − 1), as numpy', () => {
    const sorted = [1, 2, 4, 8];
    expect(quantile(sorted, 0)).toBe(1);
    expect(quantile(sorted, 1)).toBe(8);
    expect(quantile(sorted, 0.5)).toBe(3);
    // position 0.1 · 3 = 0.3: 1 + 0.3 · (2 − 1)
    expect(quantile(sorted, 0.1)).toBeCloseTo(1.3, 12);
    // position 0.9 · 3 = 2.7: 4 + 0.7 · (8 − 4)
    expect(quantile(sorted, 0.9)).toBeCloseTo(6.8, 12);
    expect(quantile([5], 0.25)).toBe(5);
  });

  it('should reject an empty sample and q outside [0, 1]', () => {
    expect(() => quantile([], 0.5)).toThrow(InvalidArgumentError);
    expect(() => quantile([1], 1.5)).toThrow('q: expected [0, 1], got 1.5');
  });
});

describe('summarize', () => {
  it('should give the median of an odd sample and its spread, whatever the order', () => {
    const summary = summarize([9, 1, 5, 3, 7]);
    expect(summary).toMatchObject({ count: 5, median: 5, mean: 5, min: 1, max: 9 });
    // quartiles at positions 1 and 3 of [1, 3, 5, 7, 9]
    expect(summary.iqr).toBe(4);
    // deviations from 5: 4, 2, 0, 2, 4 → median 2
    expect(summary.mad).toBe(2);
    expect(summary.p10).toBeCloseTo(1.8, 12);
    expect(summary.p90).toBeCloseTo(8.2, 12);
  });

  it('should average the two middle values of an even sample and resist an outlier', () => {
    const summary = summarize([10, 11, 12, 1000]);
    expect(summary.median).toBe(11.5);
    expect(summary.mean).toBe(258.25);
    expect(summary.mad).toBe(1);
  });

  it('should reject an empty sample or a value that is not finite, naming it', () => {
    expect(() => summarize([])).toThrow('values: expected at least one value');
    expect(() => summarize([1, Number.NaN])).toThrow(
      'values[1]: expected a finite number, got NaN',
    );
    expect(() => summarize([Infinity])).toThrow(InvalidArgumentError);
  });
});
