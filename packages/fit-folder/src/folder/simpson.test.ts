import { InvalidArgumentError, SeededRandom } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { simpsonIntegral } from './simpson.js';

function range(count: number): Float64Array {
  return Float64Array.from({ length: count }, (_, index) => index);
}

function randomIncreasing(count: number, seed: number): Float64Array {
  const random = new SeededRandom(seed);
  let x = 0;
  return Float64Array.from({ length: count }, () => (x += random.uniformBetween(0.1, 1)));
}

describe('simpsonIntegral', () => {
  it("should give SciPy's documented results for 10 equally spaced samples", () => {
    // scipy.integrate.simpson docstring: x = y = arange(10) → 40.5; y = x³ → 1640.5
    const x = range(10);
    expect(simpsonIntegral(x, x)).toBeCloseTo(40.5, 12);
    expect(
      simpsonIntegral(
        x.map((value) => value ** 3),
        x,
      ),
    ).toBeCloseTo(1640.5, 10);
  });

  it('should integrate a cubic exactly with an odd number of equal steps', () => {
    const x = Float64Array.from({ length: 11 }, (_, index) => index / 5);
    expect(
      simpsonIntegral(
        x.map((value) => value ** 3 - value),
        x,
      ),
    ).toBeCloseTo(4 - 2, 13);
  });

  it('should integrate a quadratic exactly on uneven samples, odd and even counts', () => {
    const quadratic = (x: number) => 3 * x * x - x + 2;
    const primitive = (x: number) => x ** 3 - (x * x) / 2 + 2 * x;
    for (const count of [7, 8]) {
      const x = randomIncreasing(count, count);
      const exact = primitive(x[count - 1]) - primitive(x[0]);
      expect(simpsonIntegral(x.map(quadratic), x)).toBeCloseTo(exact, 10);
    }
  });

  it('should use the trapezoid for two samples', () => {
    expect(simpsonIntegral([1, 3], [0, 2])).toBe(4);
  });

  it('should reject fewer than two samples or mismatched lengths', () => {
    expect(() => simpsonIntegral([1], [0])).toThrow(InvalidArgumentError);
    expect(() => simpsonIntegral([1, 2, 3], [0, 1])).toThrow(InvalidArgumentError);
  });
});
