import { InvalidArgumentError, SeededRandom } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { N3FIT_SPACE, n3fitActiveLabels } from './n3fit-space.fixture.js';
import { randomPoint, randomPoints, roundHalfEven } from './random-search.js';
import { choice, evaluateSpace, logUniform, quantizedUniform, uniform } from './space.js';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

describe('roundHalfEven', () => {
  it('should round halves to the even neighbour as numpy.round does', () => {
    expect([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 2.4, 2.6, -2.6].map(roundHalfEven)).toEqual([
      0, 2, 2, 4, -0, -2, -2, 2, 3, -3,
    ]);
  });
});

describe('randomPoint', () => {
  it('should quantise a quniform to multiples of q, rounding U(low, high)/q', () => {
    const random = new SeededRandom(11);
    const values = randomPoints({ units: quantizedUniform('units', 10, 45, 7) }, 2000, random).map(
      (point) => point['units'],
    );
    // U(10, 45)/7 lies in [1.43, 6.43): every multiple 7…42 occurs, 7 only for U < 10.5.
    expect([...new Set(values)].sort((a, b) => a - b)).toEqual([7, 14, 21, 28, 35, 42]);
    const sevens = values.filter((value) => value === 7).length / values.length;
    // P(7) = 0.5/35 = 0.0143, binomial σ = 0.0027 for 2000 draws.
    expect(Math.abs(sevens - 0.5 / 35)).toBeLessThan(0.012);
  });

  it('should keep non-integer q on its grid and cast integer nodes in evaluateSpace', () => {
    const space = {
      patience: quantizedUniform('patience', 0.1, 0.3, 0.04),
      width: quantizedUniform('width', 0, 10, 2.5, { integer: true }),
    };
    const points = randomPoints(space, 500, new SeededRandom(5));
    for (const point of points) {
      const steps = point['patience'] / 0.04;
      expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-9);
      expect(point['patience']).toBeGreaterThanOrEqual(0.1 - 0.02);
      expect(point['patience']).toBeLessThanOrEqual(0.3 + 0.02);
      const value = evaluateSpace(space, point) as { width: number };
      expect(Number.isInteger(value.width)).toBe(true);
      expect(value.width).toBe(Math.trunc(point['width']));
    }
    // 2.5 and 7.5 are on the width grid: the point keeps them, the value is truncated.
    expect(points.some((point) => point['width'] === 7.5)).toBe(true);
  });

  it('should draw a loguniform within its bounds, uniform in log', () => {
    const draws = 20_000;
    const values = randomPoints(
      { lr: logUniform('lr', 1e-5, 1e-1) },
      draws,
      new SeededRandom(3),
    ).map((point) => point['lr']);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(1e-5);
    expect(Math.max(...values)).toBeLessThanOrEqual(1e-1);
    // log10(lr) ~ U(−5, −1): the median is the geometric mean 1e-3. The sample median of
    // U(a, b) has σ ≈ (b − a)/(2√n) = 4/(2·141) = 0.014 in log10; 0.06 is over 4σ. A sampler
    // uniform in lr would put the median near 0.05 (log10 ≈ −1.3).
    expect(Math.abs(Math.log10(median(values)) + 3)).toBeLessThan(0.06);
    // Each decade holds a quarter of the draws (binomial σ = 0.0031; 0.015 is about 5σ).
    for (let decade = -5; decade < -1; decade++) {
      const share =
        values.filter((value) => value >= 10 ** decade && value < 10 ** (decade + 1)).length /
        draws;
      expect(Math.abs(share - 0.25)).toBeLessThan(0.015);
    }
  });

  it('should draw choice indices uniformly in range', () => {
    const values = randomPoints({ c: choice('c', ['a', 'b', 'c']) }, 3000, new SeededRandom(8)).map(
      (point) => point['c'],
    );
    expect(new Set(values)).toEqual(new Set([0, 1, 2]));
    for (let index = 0; index < 3; index++) {
      const share = values.filter((value) => value === index).length / values.length;
      // Binomial σ = 0.0086 for 3000 draws.
      expect(Math.abs(share - 1 / 3)).toBeLessThan(0.04);
    }
  });

  it('should hold exactly the labels active given its choices', () => {
    const points = randomPoints(N3FIT_SPACE, 300, new SeededRandom(21));
    for (const point of points) {
      expect(Object.keys(point).sort()).toEqual(n3fitActiveLabels(point));
      expect(() => evaluateSpace(N3FIT_SPACE, point)).not.toThrow();
    }
    // Both optimisers and both depths occur.
    expect(new Set(points.map((point) => point['optimizer']))).toEqual(new Set([0, 1]));
    expect(new Set(points.map((point) => point['nodes_per_layer']))).toEqual(new Set([0, 1]));
  });

  it('should draw a label shared by two branches once', () => {
    const rate = uniform('rate', 0, 1);
    const space = { a: rate, b: [rate, rate] };
    const point = randomPoint(space, new SeededRandom(1));
    expect(Object.keys(point)).toEqual(['rate']);
    const value = evaluateSpace(space, point) as { a: number; b: number[] };
    expect(value.b).toEqual([value.a, value.a]);
  });

  it('should repeat itself for the same seed and differ for another', () => {
    const first = randomPoints(N3FIT_SPACE, 20, new SeededRandom(1));
    expect(randomPoints(N3FIT_SPACE, 20, new SeededRandom(1))).toEqual(first);
    const other = randomPoints(N3FIT_SPACE, 20, new SeededRandom(2));
    expect(other).not.toEqual(first);
    expect(other[0]['pos_initial']).not.toBe(first[0]['pos_initial']);
    // randomPoints is randomPoint over and over.
    const random = new SeededRandom(1);
    expect([randomPoint(N3FIT_SPACE, random), randomPoint(N3FIT_SPACE, random)]).toEqual(
      first.slice(0, 2),
    );
  });

  it('should refuse a count that is not a non-negative integer', () => {
    expect(randomPoints(N3FIT_SPACE, 0, new SeededRandom(1))).toEqual([]);
    expect(() => randomPoints(N3FIT_SPACE, -1, new SeededRandom(1))).toThrow(
      'count: expected a non-negative integer, got -1',
    );
    expect(() => randomPoints(N3FIT_SPACE, 1.5, new SeededRandom(1))).toThrow(InvalidArgumentError);
  });
});
