import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { activeFlavourNumber } from './active-flavours.js';

describe('activeFlavourNumber', () => {
  it('should give 4 at the NNPDF4.0 scale Q0 = 1.65 GeV with theory 200', () => {
    expect(activeFlavourNumber(1.65)).toBe(4);
  });

  it('should add c, b, t as Q0 reaches m·k', () => {
    const perturbativeCharm = { intrinsicCharm: false };
    expect(activeFlavourNumber(1.4, perturbativeCharm)).toBe(3);
    expect(activeFlavourNumber(1.51, perturbativeCharm)).toBe(4);
    expect(activeFlavourNumber(4.91, perturbativeCharm)).toBe(4);
    expect(activeFlavourNumber(4.92, perturbativeCharm)).toBe(5);
    expect(activeFlavourNumber(172.5, perturbativeCharm)).toBe(6);
  });

  it('should scale the thresholds by the threshold ratios', () => {
    const settings = { intrinsicCharm: false, charmThresholdRatio: 2 };
    expect(activeFlavourNumber(1.65, settings)).toBe(3);
    expect(activeFlavourNumber(3.02, settings)).toBe(4);
  });

  it('should stop counting at the first inactive quark, as upstream', () => {
    // bottom below Q0 but charm above it: upstream breaks at charm
    const settings = { intrinsicCharm: false, charmMass: 10, bottomMass: 2 };
    expect(activeFlavourNumber(5, settings)).toBe(3);
  });

  it('should keep charm with intrinsic charm below its threshold', () => {
    expect(activeFlavourNumber(1.2, { intrinsicCharm: true })).toBe(4);
    expect(activeFlavourNumber(1.2)).toBe(4);
  });

  it('should reject a non-positive scale, mass or ratio', () => {
    expect(() => activeFlavourNumber(0)).toThrow(InvalidArgumentError);
    expect(() => activeFlavourNumber(Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => activeFlavourNumber(1.65, { bottomMass: -1 })).toThrow(/bottomMass/);
    expect(() => activeFlavourNumber(1.65, { topThresholdRatio: 0 })).toThrow(/topThresholdRatio/);
  });
});
