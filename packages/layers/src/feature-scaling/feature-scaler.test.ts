import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { featureScaler, roundHalfToEven } from './feature-scaler.js';

describe('featureScaler', () => {
  it('should build the hand-computed nodes when the data start above 1e-9', () => {
    // N = 5, no x = 1: grid linspace(1/5, 1, 5, endpoint=False) = 0.2 + 0.16·i. Distinct x and
    // their cumulative counts (1, 3, 4, 5) land on grid[0], grid[2], grid[3], grid[4]; (1e-9, 0)
    // goes in front. With M = 5 nodes and k = 3: round(2.5 − 1) = 2, round(5 − 1) = 4, plus 0 and 1.
    const scaler = featureScaler(
      [
        [0.01, 0.5, 0.001],
        [0.1, 0.01],
      ],
      3,
    );
    expect(Array.from(scaler.nodeX)).toEqual([1e-9, 0.001, 0.01, 0.5]);
    expect(scaler.nodeValue[0]).toBe(0);
    expect(scaler.nodeValue[1]).toBeCloseTo(0.2, 15);
    expect(scaler.nodeValue[2]).toBeCloseTo(0.52, 15);
    expect(scaler.nodeValue[3]).toBeCloseTo(0.84, 15);
    expect(scaler.scale(1e-9)).toBeCloseTo(-1, 14);
    expect(scaler.scale(0.001)).toBeCloseTo(-0.6, 14);
    expect(scaler.scale(0.01)).toBeCloseTo(0.04, 14);
    expect(scaler.scale(0.5)).toBeCloseTo(0.68, 14);
  });

  it('should use linspace(0, 1, N) with its endpoint when the data reach 1e-9 and 1', () => {
    const scaler = featureScaler([1, 1e-9, 0.1], 2);
    expect(Array.from(scaler.nodeX)).toEqual([1e-9, 0.1, 1]);
    expect(Array.from(scaler.nodeValue)).toEqual([0, 0.5, 1]);
    expect(Array.from(scaler.scaleAll([1e-9, 0.1, 1]))).toEqual([-1, 0, 1]);
  });

  it('should map a realistic x-grid monotonically onto about [−1, 1]', () => {
    const grid = Array.from({ length: 50 }, (_, i) => 10 ** (-8 + (8 * i) / 50));
    const scaler = featureScaler([grid, grid.slice(20), [0.3, 0.7, 0.9]], 5);
    let previous = -Infinity;
    for (let logX = -9; logX <= 0; logX += 0.01) {
      const scaled = scaler.scale(10 ** logX);
      expect(scaled).toBeGreaterThanOrEqual(previous);
      previous = scaled;
    }
    expect(scaler.scale(1e-9)).toBe(-1);
    expect(scaler.scale(scaler.nodeX[scaler.nodeX.length - 1])).toBeLessThan(1);
    expect(scaler.nodeX.length).toBe(6);
  });

  it('should round halves to even, as Python does', () => {
    expect([0.5, 1.5, 2.5, -0.5, 2.4999, 2.5001].map(roundHalfToEven)).toEqual([0, 2, 2, 0, 2, 3]);
  });

  it('should reject x outside (0, 1] and impossible point counts', () => {
    expect(() => featureScaler([[0.1], [0.2, 0]], 2)).toThrow(
      /xValues\[1\]\[1\]: expected an x in \(0, 1\], got 0/,
    );
    expect(() => featureScaler([0.1, Number.NaN], 2)).toThrow(/xValues\[1\]/);
    expect(() => featureScaler([0.1, 1.5], 2)).toThrow(InvalidArgumentError);
    expect(() => featureScaler([], 2)).toThrow(/no x-values/);
    expect(() => featureScaler([0.1, 0.2], 1)).toThrow(/at least 2/);
    expect(() => featureScaler([0.1, 0.2], 4)).toThrow(
      /larger than the number of distinct x-values \(3/,
    );
  });
});
