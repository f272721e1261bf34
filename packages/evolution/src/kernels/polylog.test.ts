import { describe, expect, it } from 'vitest';
import { dilogarithm, nielsenS12, trilogarithm, ZETA2, ZETA3 } from './polylog.js';

/** Σ_(k ≥ 1) y^k/k^power, summed from the smallest term, for |y| ≤ 0.99. */
function directSum(y: number, power: number): number {
  let sum = 0;
  for (let k = 8000; k >= 1; k--) sum += y ** k / k ** power;
  return sum;
}

describe('polylogarithms from their Bernoulli series', () => {
  it('should equal the defining power series on both sides of ½, up to y = 0.99', () => {
    for (const y of [-0.7, -0.3, 0.2, 0.5, 0.6, 0.8, 0.9, 0.99]) {
      expect(trilogarithm(y) / directSum(y, 3) - 1).toBeCloseTo(0, 14);
    }
    for (const y of [0.2, 0.5, 0.6, 0.8, 0.9, 0.99]) {
      expect(dilogarithm(y) / directSum(y, 2) - 1).toBeCloseTo(0, 14);
    }
  });

  it('should reach ζ values at 1 continuously', () => {
    expect(trilogarithm(1 - 1e-12)).toBeCloseTo(ZETA3, 10);
    expect(dilogarithm(1 - 1e-12)).toBeCloseTo(ZETA2, 10);
    // S_{1,2}(1 − ε) = ζ3 − ε(1 − ln ε + ½ln²ε) + …, slower than the others.
    const epsilon = 1e-12;
    const lnEpsilon = Math.log(epsilon);
    expect(nielsenS12(1 - epsilon)).toBeCloseTo(
      ZETA3 - epsilon * (1 - lnEpsilon + 0.5 * lnEpsilon * lnEpsilon),
      13,
    );
  });

  it('should give S_{1,2} at the known points on either side of ½', () => {
    // S_{1,2}(−1) = ζ3/8 and S_{1,2}(½) = ζ3/8 − ln³2/6 (both from the series); above ½ the
    // reflection must have the derivative S'_{1,2}(y) = ln²(1 − y)/(2y).
    expect(nielsenS12(-1)).toBeCloseTo(ZETA3 / 8, 14);
    expect(nielsenS12(0.5)).toBeCloseTo(ZETA3 / 8 - Math.log(2) ** 3 / 6, 14);
    const h = 1e-5;
    for (const y of [0.3, 0.7, 0.9]) {
      const slope = (nielsenS12(y + h) - nielsenS12(y - h)) / (2 * h);
      expect(slope).toBeCloseTo(Math.log1p(-y) ** 2 / (2 * y), 7);
    }
  });
});
