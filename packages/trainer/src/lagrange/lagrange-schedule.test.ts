import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { lagrangeMultiplierAt, lagrangeSchedule } from './lagrange-schedule.js';

describe('lagrangeSchedule', () => {
  it('should reach maxlambda at the last update when the multiplier is left out', () => {
    // NNPDF4.0 positivity: initial 184.8, maxlambda 1e6, 17,000 epochs → 170 updates.
    const schedule = lagrangeSchedule({ initial: 184.8, maxLambda: 1e6, epochs: 17_000 });
    expect(schedule.multiplier).toBeCloseTo((1e6 / 184.8) ** (1 / 170), 12);
    expect(lagrangeMultiplierAt(schedule, 0)).toBe(184.8);
    expect(lagrangeMultiplierAt(schedule, 99)).toBe(184.8);
    expect(lagrangeMultiplierAt(schedule, 100)).toBeCloseTo(184.8 * schedule.multiplier, 9);
    expect(lagrangeMultiplierAt(schedule, 17_000) / 1e6).toBeCloseTo(1, 10);
  });

  it('should start at 1 when neither is given, and back out the initial value from a multiplier', () => {
    const both = lagrangeSchedule({ maxLambda: 100, epochs: 1000 });
    expect(both.initial).toBe(1);
    expect(both.multiplier ** 10).toBeCloseTo(100, 10);
    const fromMultiplier = lagrangeSchedule({ multiplier: 1.05, maxLambda: 1e6, epochs: 900 });
    expect(fromMultiplier.initial * 1.05 ** 9).toBeCloseTo(1e6, 6);
    expect(lagrangeSchedule({ initial: 2, multiplier: 3, maxLambda: 1, epochs: 500 })).toEqual({
      initial: 2,
      multiplier: 3,
    });
  });

  it('should update at least once in fits shorter than 100 epochs, and reject bad settings', () => {
    expect(lagrangeSchedule({ initial: 1, maxLambda: 10, epochs: 50 }).multiplier).toBeCloseTo(
      10,
      12,
    );
    expect(() => lagrangeSchedule({ initial: -1, maxLambda: 10, epochs: 50 })).toThrow(
      InvalidArgumentError,
    );
  });
});
