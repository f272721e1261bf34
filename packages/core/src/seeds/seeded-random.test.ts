import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { SeededRandom } from './seeded-random.js';

function moments(draws: Float64Array) {
  let mean = 0;
  for (const draw of draws) mean += draw;
  mean /= draws.length;
  let variance = 0;
  let fourth = 0;
  for (const draw of draws) {
    variance += (draw - mean) ** 2;
    fourth += (draw - mean) ** 4;
  }
  variance /= draws.length;
  return { mean, variance, kurtosis: fourth / draws.length / variance ** 2 };
}

describe('SeededRandom', () => {
  it('should reproduce the reference xoshiro128** sequence from state (1, 2, 3, 4)', () => {
    // First outputs of the authors' C implementation with s = {1, 2, 3, 4}.
    const random = SeededRandom.fromState([1, 2, 3, 4]);
    const draws = Array.from({ length: 8 }, () => random.nextUint32());
    expect(draws).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849,
    ]);
  });

  it('should give the same sequence for the same seed and different ones for different seeds', () => {
    const first = new SeededRandom(12345);
    const second = new SeededRandom(12345);
    const other = new SeededRandom(12346);
    const a = Array.from({ length: 5 }, () => first.uniform());
    const b = Array.from({ length: 5 }, () => second.uniform());
    const c = Array.from({ length: 5 }, () => other.uniform());
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('should continue exactly from a saved state', () => {
    const random = new SeededRandom(7);
    random.normals(11);
    const resumed = SeededRandom.fromState(random.state());
    expect(Array.from(resumed.normals(5))).toEqual(Array.from(random.normals(5)));
  });

  it('should draw uniforms in [0, 1) with the moments of the uniform distribution', () => {
    const random = new SeededRandom(2024);
    const draws = new Float64Array(200_000);
    for (let i = 0; i < draws.length; i++) draws[i] = random.uniform();
    expect(draws.reduce((low, draw) => Math.min(low, draw))).toBeGreaterThanOrEqual(0);
    expect(draws.reduce((high, draw) => Math.max(high, draw))).toBeLessThan(1);
    const { mean, variance } = moments(draws);
    expect(mean).toBeCloseTo(0.5, 2);
    expect(variance).toBeCloseTo(1 / 12, 3);
  });

  it('should draw normals with mean 0, variance 1 and kurtosis 3', () => {
    const { mean, variance, kurtosis } = moments(new SeededRandom(99).normals(200_000));
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(variance - 1)).toBeLessThan(0.015);
    expect(Math.abs(kurtosis - 3)).toBeLessThan(0.06);
  });

  it('should draw uniformly between two bounds', () => {
    const random = new SeededRandom(5);
    for (let i = 0; i < 1000; i++) {
      const draw = random.uniformBetween(1.05, 1.19);
      expect(draw).toBeGreaterThanOrEqual(1.05);
      expect(draw).toBeLessThan(1.19);
    }
  });

  it('should reject seeds that are not unsigned 32-bit integers and an all-zero state', () => {
    expect(() => new SeededRandom(-1)).toThrow(InvalidArgumentError);
    expect(() => new SeededRandom(2 ** 32)).toThrow(
      /seed: expected an integer between 0 and 4294967295, got 4294967296/,
    );
    expect(() => new SeededRandom(1.5)).toThrow(InvalidArgumentError);
    expect(() => SeededRandom.fromState([0, 0, 0, 0])).toThrow(/state: must not be all zeros/);
  });
});
