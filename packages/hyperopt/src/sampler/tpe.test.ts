import { InvalidArgumentError, SeededRandom } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import {
  BRANIN_HISTORY,
  BRANIN_QUANTILES,
  CONDITIONAL_B_LR_SUGGESTIONS,
  CONDITIONAL_HISTORY,
  CONDITIONAL_OPT_FREQUENCIES,
  CONDITIONAL_QUANTILES,
  QUANTILE_PROBABILITIES,
} from './hyperopt-reference.fixture.js';
import { N3FIT_SPACE, n3fitActiveLabels, n3fitLoss } from './n3fit-space.fixture.js';
import { randomPoints } from './random-search.js';
import {
  choice,
  evaluateSpace,
  logUniform,
  quantizedUniform,
  uniform,
  type SpacePoint,
  type SpaceValue,
} from './space.js';
import { splitGood, tpePoints, type ScoredPoint, type TpeOptions } from './tpe.js';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function scored(points: readonly SpacePoint[], loss: (point: SpacePoint) => number): ScoredPoint[] {
  return points.map((point) => ({ point, loss: loss(point) }));
}

/** The Branin–Hoo function; its minimum 0.397887 is at (−π, 12.275), (π, 2.275), (9.42478, 2.475). */
function branin(point: SpacePoint): number {
  const x1 = point['x1'];
  const x2 = point['x2'];
  const b = 5.1 / (4 * Math.PI ** 2);
  const c = 5 / Math.PI;
  const t = 1 / (8 * Math.PI);
  return (x2 - b * x1 * x1 + c * x1 - 6) ** 2 + 10 * (1 - t) * Math.cos(x1) + 10;
}
const BRANIN_SPACE = { x1: uniform('x1', -5, 10), x2: uniform('x2', 0, 15) };

/** A space mixing the three kinds of n3fit scans: a choice, an integer quniform, a loguniform. */
const MIXED_SPACE = {
  optimizer: choice('optimizer', ['RMSprop', 'Adam', 'Adadelta']),
  units: quantizedUniform('units', 1, 30, 1, { integer: true }),
  learning_rate: logUniform('learning_rate', 1e-5, 1e-1),
};
function mixedLoss(point: SpacePoint): number {
  const optimizerPenalty = [1, 0, 2][point['optimizer']];
  return (
    optimizerPenalty +
    ((point['units'] - 12) / 10) ** 2 +
    (Math.log10(point['learning_rate']) + 3) ** 2 / 4
  );
}

/** The best loss of `evaluations` sequential TPE suggestions, one at a time. */
function tpeBest(
  space: SpaceValue,
  loss: (point: SpacePoint) => number,
  seed: number,
  evaluations: number,
): number {
  const random = new SeededRandom(seed);
  const history: ScoredPoint[] = [];
  for (let i = 0; i < evaluations; i++) {
    const [point] = tpePoints(space, history, 1, random);
    history.push({ point, loss: loss(point) });
  }
  return Math.min(...history.map((trial) => trial.loss));
}

function randomBest(
  space: SpaceValue,
  loss: (point: SpacePoint) => number,
  seed: number,
  evaluations: number,
): number {
  return Math.min(...randomPoints(space, evaluations, new SeededRandom(seed)).map(loss));
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * Checks that `values` follow the distribution whose p-quantiles are `reference` (estimated from
 * `referenceCount` draws): the share of values below each reference quantile must be p within
 * 4σ, σ² = p(1 − p)(1/n + 1/referenceCount) (both shares binomial).
 */
function expectQuantiles(
  values: readonly number[],
  reference: readonly number[],
  referenceCount: number,
): void {
  QUANTILE_PROBABILITIES.forEach((p, i) => {
    const share = values.filter((value) => value <= reference[i]).length / values.length;
    const sigma = Math.sqrt(p * (1 - p) * (1 / values.length + 1 / referenceCount));
    expect(Math.abs(share - p), `quantile ${p}`).toBeLessThan(4 * sigma);
  });
}

describe('tpePoints: options and history', () => {
  it("should default to hyperopt's settings and refuse invalid options naming them", () => {
    const history = scored(randomPoints(BRANIN_SPACE, 25, new SeededRandom(1)), branin);
    const explicit: TpeOptions = {
      startupTrials: 20,
      gamma: 0.25,
      candidates: 24,
      priorWeight: 1,
      linearForgetting: 25,
    };
    expect(tpePoints(BRANIN_SPACE, history, 3, new SeededRandom(2), explicit)).toEqual(
      tpePoints(BRANIN_SPACE, history, 3, new SeededRandom(2)),
    );
    const invalid: [TpeOptions, string][] = [
      [{ candidates: 0 }, 'candidates'],
      [{ startupTrials: -1 }, 'startupTrials'],
      [{ gamma: 0 }, 'gamma'],
      [{ priorWeight: Number.NaN }, 'priorWeight'],
      [{ linearForgetting: 2.5 }, 'linearForgetting'],
    ];
    for (const [options, argument] of invalid) {
      expect(() => tpePoints(BRANIN_SPACE, history, 1, new SeededRandom(2), options)).toThrow(
        expect.objectContaining({ argument }),
      );
    }
    expect(() => tpePoints(BRANIN_SPACE, history, -1, new SeededRandom(2))).toThrow(
      'count: expected a non-negative integer, got -1',
    );
  });

  it('should name the label of a history value the space cannot take', () => {
    const space = { c: choice('c', ['a', 'b']), lr: logUniform('lr', 1e-4, 1e-2) };
    const suggest = (point: SpacePoint) => () =>
      tpePoints(space, [{ point, loss: 1 }], 1, new SeededRandom(1), { startupTrials: 0 });
    expect(suggest({ c: 2, lr: 1e-3 })).toThrow(
      'c: history[0] has 2, expected a choice index between 0 and 1',
    );
    expect(suggest({ c: 0, lr: -1 })).toThrow(InvalidArgumentError);
    expect(suggest({ c: 0, lr: Number.NaN })).toThrow('lr: history[0] has NaN');
    // Labels the space does not have are ignored.
    expect(suggest({ c: 0, lr: 1e-3, other: Number.NaN })()).toHaveLength(1);
  });

  it('should split off the best ⌈gamma·√n⌉ trials, at most linearForgetting, ties by order', () => {
    const losses = Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
    const good = splitGood(losses, 0.25, 25).flatMap((isGood, index) =>
      isGood ? [losses[index]] : [],
    );
    expect(good.sort((a, b) => a - b)).toEqual([0, 1, 2]); // ⌈0.25·10⌉ = 3
    expect(splitGood([5, 1, 1, 1, 0], 0.9, 25)).toEqual([false, true, true, false, true]); // ⌈2.01⌉ = 3
    expect(splitGood(new Array<number>(20_000).fill(0), 0.25, 25).filter(Boolean)).toHaveLength(25);
    expect(splitGood([], 0.25, 25)).toEqual([]);
  });

  it('should suggest random points until startupTrials trials are finished, failed ones too', () => {
    const random = new SeededRandom(3);
    const finite = scored(randomPoints(BRANIN_SPACE, 15, random), branin);
    const failed = scored(randomPoints(BRANIN_SPACE, 4, random), () => Number.NaN);
    const nineteen = [...finite, ...failed];
    expect(tpePoints(BRANIN_SPACE, nineteen, 5, new SeededRandom(9))).toEqual(
      randomPoints(BRANIN_SPACE, 5, new SeededRandom(9)),
    );
    const twenty = [...nineteen, { point: { x1: 3, x2: 2 }, loss: Number.POSITIVE_INFINITY }];
    expect(tpePoints(BRANIN_SPACE, twenty, 5, new SeededRandom(9))).not.toEqual(
      randomPoints(BRANIN_SPACE, 5, new SeededRandom(9)),
    );
  });

  it('should count a failed trial (no finite loss) as a bad one, as hyperopt does', () => {
    const history = scored(randomPoints(BRANIN_SPACE, 30, new SeededRandom(4)), branin);
    const failure = (loss: number): ScoredPoint => ({ point: { x1: 9.9, x2: 0.1 }, loss });
    const withNaN = [...history, failure(Number.NaN), failure(Number.NaN)];
    const withInfinity = [...history, failure(Infinity), failure(Infinity)];
    const suggestions = tpePoints(BRANIN_SPACE, withNaN, 10, new SeededRandom(5));
    expect(suggestions).toEqual(tpePoints(BRANIN_SPACE, withInfinity, 10, new SeededRandom(5)));
    // the failures are bad trials: g(x) grows near (9.9, 0.1), so the suggestions change
    expect(suggestions).not.toEqual(tpePoints(BRANIN_SPACE, history, 10, new SeededRandom(5)));
  });
});

describe('tpePoints: suggestions', () => {
  it('should repeat itself for the same seed and differ for another', () => {
    const history = scored(randomPoints(N3FIT_SPACE, 40, new SeededRandom(6)), n3fitLoss);
    const first = tpePoints(N3FIT_SPACE, history, 8, new SeededRandom(1));
    expect(tpePoints(N3FIT_SPACE, history, 8, new SeededRandom(1))).toEqual(first);
    const other = tpePoints(N3FIT_SPACE, history, 8, new SeededRandom(2));
    expect(other).not.toEqual(first);
  });

  it('should hold exactly the labels active given its choices (conditional spaces)', () => {
    const history = scored(randomPoints(N3FIT_SPACE, 40, new SeededRandom(7)), n3fitLoss);
    const points = tpePoints(N3FIT_SPACE, history, 200, new SeededRandom(8));
    for (const point of points) {
      expect(Object.keys(point).sort()).toEqual(n3fitActiveLabels(point));
      expect(() => evaluateSpace(N3FIT_SPACE, point)).not.toThrow();
    }
    // Measured: mean loss 0.378 for these suggestions, 1.186 for 200 random points.
    const tpeLoss = mean(points.map(n3fitLoss));
    const randomLoss = mean(randomPoints(N3FIT_SPACE, 200, new SeededRandom(8)).map(n3fitLoss));
    expect(tpeLoss).toBeLessThan(randomLoss / 2);
  });

  it('should concentrate near the minimum of (x − 0.3)²', () => {
    const space = { x: uniform('x', 0, 1) };
    const loss = (point: SpacePoint) => (point['x'] - 0.3) ** 2;
    const history = scored(randomPoints(space, 100, new SeededRandom(10)), loss);
    const distance = (points: SpacePoint[]) =>
      median(points.map((point) => Math.abs(point['x'] - 0.3)));
    const tpe = distance(tpePoints(space, history, 200, new SeededRandom(11)));
    const random = distance(randomPoints(space, 200, new SeededRandom(11)));
    // Measured: TPE 0.022, random 0.257 (0.25 in expectation for U(0, 1)).
    expect(tpe).toBeLessThan(0.05);
    expect(tpe).toBeLessThan(random / 4);
  });

  it('should suggest the option with the lowest losses most often', () => {
    const space = { option: choice('option', ['a', 'b', 'c', 'd']) };
    const noise = new SeededRandom(12);
    const loss = (point: SpacePoint) => [3, 1, 0, 2][point['option']] + noise.uniform();
    const history = scored(randomPoints(space, 60, new SeededRandom(13)), loss);
    const counts = [0, 0, 0, 0];
    for (const point of tpePoints(space, history, 200, new SeededRandom(14)))
      counts[point['option']]++;
    // Measured: [0, 0, 200, 0]. With 24 candidates the best ratio l/g almost always wins.
    expect(counts.indexOf(Math.max(...counts))).toBe(2);
    expect(counts[2]).toBeGreaterThan(100);
  });
});

describe('tpePoints: against hyperopt', () => {
  it("should suggest from the same distribution as hyperopt's tpe.suggest (Branin history)", () => {
    const points = tpePoints(BRANIN_SPACE, BRANIN_HISTORY, 2000, new SeededRandom(15));
    expect(points).toHaveLength(2000);
    expectQuantiles(
      points.map((point) => point['x1']),
      BRANIN_QUANTILES.x1,
      4000,
    );
    expectQuantiles(
      points.map((point) => point['x2']),
      BRANIN_QUANTILES.x2,
      4000,
    );
  });

  it("should suggest from the same distribution as hyperopt's on a conditional space", () => {
    const space = {
      opt: choice('opt', [
        { lr: logUniform('a_lr', 1e-4, 1e-1) },
        { lr: logUniform('b_lr', 1e-4, 1e-1), m: uniform('m', 0, 1) },
        'none',
      ]),
      units: quantizedUniform('units', 1, 30, 4),
    };
    const count = 2000;
    const points = tpePoints(space, CONDITIONAL_HISTORY, count, new SeededRandom(16), {
      candidates: 3,
    });
    CONDITIONAL_OPT_FREQUENCIES.forEach((p, option) => {
      const share = points.filter((point) => point['opt'] === option).length / count;
      const sigma = Math.sqrt(p * (1 - p) * (1 / count + 1 / 4000));
      expect(Math.abs(share - p), `option ${option}`).toBeLessThan(4 * sigma + 1e-3);
    });
    const chosen = points.filter((point) => point['opt'] === 1);
    expectQuantiles(
      chosen.map((point) => point['b_lr']),
      CONDITIONAL_QUANTILES.b_lr,
      CONDITIONAL_B_LR_SUGGESTIONS,
    );
    expectQuantiles(
      chosen.map((point) => point['m']),
      CONDITIONAL_QUANTILES.m,
      CONDITIONAL_B_LR_SUGGESTIONS,
    );
  });
});

describe('tpePoints: against random search', () => {
  const seeds = Array.from({ length: 10 }, (_, seed) => seed);

  it('should find lower Branin losses than random search in 60 evaluations (mean of 10 seeds)', () => {
    const tpe = mean(seeds.map((seed) => tpeBest(BRANIN_SPACE, branin, seed, 60)));
    const random = mean(seeds.map((seed) => randomBest(BRANIN_SPACE, branin, seed, 60)));
    // Measured: TPE 0.887, random 0.991 (Branin's minimum is 0.397887). Ten seeds are a small
    // sample for this margin: over seeds 0–299 the means are 0.972 and 1.275 (hyperopt itself,
    // 100 seeds: 0.989 and 1.282), and TPE's mean was lower in 27 of the 30 blocks of 10 seeds
    // (seeds 1–10 are one of the 3 others: 1.026 against 1.024).
    expect(tpe).toBeLessThan(random);
    expect(tpe).toBeGreaterThan(0.397887);
  });

  it('should find lower losses than random search on a mixed space (mean of 10 seeds)', () => {
    const tpe = mean(seeds.map((seed) => tpeBest(MIXED_SPACE, mixedLoss, seed, 60)));
    const random = mean(seeds.map((seed) => randomBest(MIXED_SPACE, mixedLoss, seed, 60)));
    // Measured: TPE 0.0188, random 0.155 (the minimum is 0).
    expect(tpe).toBeLessThan(random);
  });
});
