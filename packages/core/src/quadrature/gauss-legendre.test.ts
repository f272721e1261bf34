import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { gaussLegendre } from './gauss-legendre.js';

describe('gaussLegendre', () => {
  it('should make Gauss–Legendre rules exact up to degree 2n − 1', () => {
    const rule = gaussLegendre(5, -1, 3);
    const integral = (power: number) =>
      rule.nodes.reduce((sum, t, i) => sum + rule.weights[i] * t ** power, 0);
    for (let power = 0; power <= 9; power++) {
      expect(integral(power)).toBeCloseTo(
        (3 ** (power + 1) - (-1) ** (power + 1)) / (power + 1),
        10,
      );
    }
    expect(Math.abs(integral(10) - (3 ** 11 - 1) / 11)).toBeGreaterThan(1e-3);
    expect(Array.from(rule.nodes)).toEqual([...rule.nodes].sort((a, b) => a - b));
  });

  it('should refuse a bad number of points or interval', () => {
    expect(() => gaussLegendre(0, 0, 1)).toThrow(InvalidArgumentError);
    expect(() => gaussLegendre(3, 1, 1)).toThrow('expected finite low < high, got [1, 1]');
  });
});
