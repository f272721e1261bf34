import { SeededRandom } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import {
  BRANIN_HISTORY,
  BRANIN_X1_LOG_DENSITIES,
  BRANIN_X1_POINTS,
  CONDITIONAL_HISTORY,
  UNITS_LOG_MASSES,
} from './hyperopt-reference.fixture.js';
import {
  adaptiveParzenNormal,
  categoricalPosterior,
  linearForgettingWeights,
  sampleTruncatedMixture,
  truncatedMixtureLogDensity,
  truncatedMixtureLogMass,
  truncateMixture,
} from './parzen.js';
import { splitGood, type ScoredPoint } from './tpe.js';

/** A label's observations in the good and the bad trials (hyperopt's split, default gamma). */
function splitObservations(history: readonly ScoredPoint[], label: string) {
  const good = splitGood(
    history.map((trial) => trial.loss),
    0.25,
    25,
  );
  const pick = (wanted: boolean) =>
    history.filter((_, index) => good[index] === wanted).map((trial) => trial.point[label]);
  return { below: pick(true), above: pick(false) };
}

describe('linearForgettingWeights', () => {
  it('should keep weight 1 up to LF observations', () => {
    expect([...linearForgettingWeights(0, 25)]).toEqual([]);
    expect([...linearForgettingWeights(25, 25)]).toEqual(new Array(25).fill(1));
  });

  it('should ramp the oldest from 1/n to 1 as numpy.linspace', () => {
    const weights = [...linearForgettingWeights(30, 25)];
    // numpy.linspace(1/30, 1, 5) for the 5 oldest.
    [1 / 30, 0.275, 0.5166666666666667, 0.7583333333333333, 1].forEach((expected, i) => {
      expect(weights[i]).toBeCloseTo(expected, 15);
    });
    expect(weights.slice(5)).toEqual(new Array(25).fill(1));
    // One observation past LF: linspace with one point is its start.
    expect([...linearForgettingWeights(26, 25)].slice(0, 2)).toEqual([1 / 26, 1]);
  });
});

describe('adaptiveParzenNormal', () => {
  it('should give the prior alone without observations', () => {
    const mixture = adaptiveParzenNormal([], 1, 0.5, 1, 25);
    expect([...mixture.weights]).toEqual([1]);
    expect([...mixture.mus]).toEqual([0.5]);
    expect([...mixture.sigmas]).toEqual([1]);
  });

  it('should give one observation half the prior width, sorted around the prior', () => {
    const above = adaptiveParzenNormal([0.8], 1, 0.5, 1, 25);
    expect([...above.mus]).toEqual([0.5, 0.8]);
    expect([...above.sigmas]).toEqual([1, 0.5]);
    expect([...above.weights]).toEqual([0.5, 0.5]);
    // An observation equal to the prior's centre goes before it.
    expect([...adaptiveParzenNormal([0.5], 1, 0.5, 1, 25).sigmas]).toEqual([0.5, 1]);
    expect([...adaptiveParzenNormal([0.2], 3, 0.5, 1, 25).weights]).toEqual([0.25, 0.75]);
  });

  it('should take widths from sorted neighbours, the prior among them, clipped', () => {
    // Sorted: 0.2, prior 0.5, 0.9, 0.95. Widths: 0.3 (one neighbour), prior's own 1,
    // max(0.4, 0.05) = 0.4, 0.05 → clipped up to 1/min(100, 1 + 4) = 0.2.
    const mixture = adaptiveParzenNormal([0.9, 0.2, 0.95], 2, 0.5, 1, 25);
    expect([...mixture.mus]).toEqual([0.2, 0.5, 0.9, 0.95]);
    expect(mixture.sigmas[0]).toBeCloseTo(0.3, 15);
    expect(mixture.sigmas[1]).toBe(1);
    expect(mixture.sigmas[2]).toBeCloseTo(0.4, 15);
    expect(mixture.sigmas[3]).toBeCloseTo(0.2, 15);
    expect([...mixture.weights]).toEqual([0.2, 0.4, 0.2, 0.2]);
  });

  it('should map linear-forgetting weights to the sorted observations', () => {
    // 27 observations, newest first in value: the two oldest (values 27 and 26) are ramped.
    const observations = Array.from({ length: 27 }, (_, i) => 27 - i);
    const mixture = adaptiveParzenNormal(observations, 1, 14, 28, 25);
    const total = 1 / 27 + 1 + 25 + 1; // ramp [1/27, 1], 25 ones, the prior
    const weightAt = (mu: number) => mixture.weights[[...mixture.mus].indexOf(mu)];
    expect(weightAt(27)).toBeCloseTo(1 / 27 / total, 15);
    expect(weightAt(26)).toBeCloseTo(1 / total, 15);
    expect(weightAt(1)).toBeCloseTo(1 / total, 15);
  });

  it("should reproduce hyperopt's GMM1_lpdf of a Branin history with forgetting", () => {
    const { below, above } = splitObservations(BRANIN_HISTORY, 'x1');
    expect(below).toHaveLength(2);
    expect(above).toHaveLength(38);
    const good = truncateMixture(adaptiveParzenNormal(below, 1, 2.5, 15, 25), -5, 10);
    const bad = truncateMixture(adaptiveParzenNormal(above, 1, 2.5, 15, 25), -5, 10);
    BRANIN_X1_POINTS.forEach((x, i) => {
      expect(truncatedMixtureLogDensity(good, x)).toBeCloseTo(BRANIN_X1_LOG_DENSITIES.good[i], 12);
      expect(truncatedMixtureLogDensity(bad, x)).toBeCloseTo(BRANIN_X1_LOG_DENSITIES.bad[i], 12);
    });
  });

  it("should reproduce hyperopt's quantised bin masses (with a stable sort of ties)", () => {
    const { below, above } = splitObservations(CONDITIONAL_HISTORY, 'units');
    const good = truncateMixture(adaptiveParzenNormal(below, 1, 15.5, 29, 25), 1, 30);
    const bad = truncateMixture(adaptiveParzenNormal(above, 1, 15.5, 29, 25), 1, 30);
    for (let bin = 0; bin < 8; bin++) {
      const value = 4 * bin;
      const from = Math.max(value - 2, 1);
      const to = Math.min(value + 2, 30);
      expect(truncatedMixtureLogMass(good, from, to)).toBeCloseTo(UNITS_LOG_MASSES.good[bin], 12);
      expect(truncatedMixtureLogMass(bad, from, to)).toBeCloseTo(UNITS_LOG_MASSES.bad[bin], 12);
    }
  });
});

describe('truncated mixtures', () => {
  const mixture = truncateMixture(adaptiveParzenNormal([0.1, 0.15, 0.7], 1, 0.5, 1, 25), 0, 1);

  it('should have a density that integrates to 1 over the range', () => {
    const steps = 10_000;
    let integral = 0;
    for (let i = 0; i < steps; i++) {
      integral += Math.exp(truncatedMixtureLogDensity(mixture, (i + 0.5) / steps)) / steps;
    }
    expect(integral).toBeCloseTo(1, 6);
    expect(truncatedMixtureLogMass(mixture, 0, 1)).toBeCloseTo(0, 14);
  });

  it('should draw inside [low, high) with the truncated density', () => {
    const random = new SeededRandom(4);
    const draws = Array.from({ length: 20_000 }, () => sampleTruncatedMixture(mixture, random));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    // The share below 0.3 against the mixture's own mass there (binomial σ = 0.0035).
    const share = draws.filter((x) => x < 0.3).length / draws.length;
    expect(Math.abs(share - Math.exp(truncatedMixtureLogMass(mixture, 0, 0.3)))).toBeLessThan(
      0.015,
    );
  });
});

describe('categoricalPosterior', () => {
  it('should add priorWeight to the counts of every option', () => {
    expect([...categoricalPosterior([0, 0, 2], 3, 1, 25)]).toEqual([3 / 6, 1 / 6, 2 / 6]);
    expect([...categoricalPosterior([], 4, 1, 25)]).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect([...categoricalPosterior([1], 2, 0.5, 25)]).toEqual([0.25, 0.75]);
  });

  it('should count old observations less past linear forgetting', () => {
    // 26 observations with LF 25: the oldest (option 0) counts 1/26.
    const observations = [0, ...new Array<number>(25).fill(1)];
    const probabilities = categoricalPosterior(observations, 2, 1, 25);
    expect(probabilities[0]).toBeCloseTo((1 + 1 / 26) / (2 + 25 + 1 / 26), 15);
  });
});
