import { describe, expect, it } from 'vitest';
import { erfc, normalCdf, normalLogDensity, normalMass, normalUpperTail } from './normal.js';

/** Python's `math.erfc` (the C library's), to 16 digits. */
const ERFC_REFERENCE: readonly (readonly [number, number])[] = [
  [0, 1],
  [0.3, 0.6713732405408726],
  [1, 0.15729920705028513],
  [1.999, 0.004698443348629488],
  [2, 0.004677734981047265],
  [2.5, 0.0004069520174449589],
  [3, 2.2090496998585438e-5],
  [4, 1.541725790028002e-8],
  [5, 1.5374597944280351e-12],
  [10, 2.088487583762545e-45],
  [26, 5.663192408856143e-296],
  [-1, 1.842700792949715],
];

describe('erfc', () => {
  it.each(ERFC_REFERENCE)('should give erfc(%f) to a relative 5e-13', (x, expected) => {
    expect(Math.abs(erfc(x) / expected - 1)).toBeLessThan(5e-13);
  });

  it('should underflow to 0 far in the tail and give NaN for NaN', () => {
    expect(erfc(40)).toBe(0);
    expect(erfc(-40)).toBe(2);
    expect(erfc(Number.NaN)).toBeNaN();
  });
});

describe('normal tails', () => {
  it('should give Φ and 1 − Φ accurately in both tails', () => {
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 15);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 15);
    expect(normalUpperTail(5) / 2.866515718791946e-7 - 1).toBeLessThan(1e-13);
    expect(normalUpperTail(30) / 4.906713927148764e-198 - 1).toBeLessThan(1e-12);
  });

  it('should give the mass of an interval without cancellation in the tails', () => {
    expect(normalMass(-1, 1)).toBeCloseTo(0.6826894921370859, 15);
    // Both ends far in the upper tail, where Φ rounds to 1.
    const tail = normalMass(9, 10);
    expect(tail / (1.1285884059538422e-19 - 7.619853024160593e-24) - 1).toBeLessThan(1e-12);
    expect(normalMass(-10, -9)).toBe(tail);
    expect(normalMass(1, 1)).toBe(0);
    expect(normalMass(2, 1)).toBe(0);
  });

  it('should give the log density of N(mu, sigma²)', () => {
    expect(normalLogDensity(0, 0, 1)).toBeCloseTo(-0.9189385332046727, 15);
    expect(normalLogDensity(3, 1, 2)).toBeCloseTo(-0.5 - Math.log(2) - 0.9189385332046727, 15);
  });
});
