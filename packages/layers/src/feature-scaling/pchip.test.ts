import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { createPchip } from './pchip.js';

describe('createPchip', () => {
  it('should pass through every node', () => {
    const x = [-2, -0.5, 0, 1.5, 4, 4.25];
    const y = [3, 1, 1, -2, 0.5, 7];
    const pchip = createPchip(x, y);
    x.forEach((node, k) => {
      expect(pchip.evaluate(node)).toBeCloseTo(y[k], 14);
    });
  });

  it('should give the hand-computed slopes: zero at an extremum, the edge formula capped at 3m₀', () => {
    // h = (1, 2), secants m = (2, −0.5): signs differ, so d₁ = 0; d₀ = ((2h₀+h₁)m₀ − h₀m₁)/(h₀+h₁)
    // = 8.5/3; d₂ = ((2·2+1)(−0.5) − 2·2)/3 = −6.5/3, beyond 3|m| with m's of opposite sign → 3m = −1.5.
    const pchip = createPchip([0, 1, 3], [0, 2, 1]);
    expect(Array.from(pchip.slopes)).toEqual([8.5 / 3, 0, -1.5]);
    // Hermite basis at the middle of [0, 1]: y = 0.5·0 + 0.125·d₀ + 0.5·2 − 0.125·0.
    expect(pchip.evaluate(0.5)).toBeCloseTo(1 + 0.125 * (8.5 / 3), 14);
  });

  it('should take the weighted harmonic mean of same-sign secants at interior nodes', () => {
    // h = (1, 2), m = (1, 2): w₁ = 2·2 + 1 = 5, w₂ = 2 + 2·1 = 4, d₁ = 9/(5/1 + 4/2) = 9/7.
    expect(createPchip([0, 1, 3], [0, 1, 5]).slopes[1]).toBeCloseTo(9 / 7, 15);
  });

  it('should be the straight line through two nodes, also outside them', () => {
    const pchip = createPchip([1, 3], [2, 6]);
    for (const t of [-1, 1, 2.2, 3, 10]) {
      expect(pchip.evaluate(t)).toBeCloseTo(2 * t, 13);
      expect(pchip.derivative(t)).toBeCloseTo(2, 14);
    }
  });

  it('should stay monotone on monotone data, with derivatives matching finite differences', () => {
    const x = [0, 0.1, 0.2, 1, 1.1, 5, 5.05, 9];
    const y = [0, 0, 0.3, 0.31, 2, 2.2, 7, 7.5];
    const pchip = createPchip(x, y);
    let previous = pchip.evaluate(0);
    for (let t = 0.001; t <= 9; t += 0.001) {
      const value = pchip.evaluate(t);
      expect(value).toBeGreaterThanOrEqual(previous - 1e-12);
      previous = value;
    }
    for (const t of [0.05, 0.7, 1.05, 3.3, 5.02, 8]) {
      const step = 1e-6;
      const difference = (pchip.evaluate(t + step) - pchip.evaluate(t - step)) / (2 * step);
      expect(pchip.derivative(t)).toBeCloseTo(difference, 6);
    }
    x.forEach((node, k) => {
      expect(pchip.derivative(node)).toBeCloseTo(pchip.slopes[k], 10);
    });
    expect(pchip.slopes[1]).toBe(0);
  });

  it('should reject nodes it cannot interpolate', () => {
    expect(() => createPchip([0, 1, 1], [0, 1, 2])).toThrow(/strictly increasing/);
    expect(() => createPchip([0], [1])).toThrow(InvalidArgumentError);
    expect(() => createPchip([0, 1], [1])).toThrow(ShapeError);
    expect(() => createPchip([0, Number.NaN], [1, 2])).toThrow(/not finite/);
  });
});
