import { describe, expect, it } from 'vitest';
import type { HyperMetrics } from './hyper-metrics.js';
import { bestReplicas, statistic } from './statistics.js';
import {
  fittedDataPenalty,
  foldLoss,
  trialLoss,
  trialOutcome,
  type FoldOutcome,
  type KfoldSettings,
} from './trial-loss.js';

const metrics = (chi2exp: number, phi = 0.5): HyperMetrics => ({
  chi2: chi2exp,
  phi,
  logp: 0,
  chi2exp,
});

function fold(
  validation: number[],
  experimental: number[],
  extra: Partial<FoldOutcome> = {},
): FoldOutcome {
  return {
    validationLosses: validation,
    experimentalLosses: experimental,
    penalties: {},
    heldOut: metrics(3),
    fitted: metrics(1),
    ...extra,
  };
}

function settings(changes: Partial<KfoldSettings> = {}): KfoldSettings {
  return {
    partitions: [1, 2, 3].map(() => ({ datasets: ['A'], weight: 1, overfit: false })),
    loss_type: 'chi2',
    replica_statistic: 'average',
    penalties: [],
    penalties_in_loss: false,
    threshold: 50,
    reduce_proportion: 0.85,
    ...changes,
  };
}

describe('statistics over replicas and folds (n3fit IMPLEMENTED_STATS)', () => {
  it('averages, takes the worst, or the population standard deviation', () => {
    expect(statistic('average')([1, 2, 3])).toBe(2);
    expect(statistic('best_worst')([1, 2, 3])).toBe(3);
    expect(statistic('std')([1, 2, 3])).toBeCloseTo(0.816496580927726, 14);
  });

  it('keeps the best ⌈proportion·R⌉ replicas by validation loss, NaN last', () => {
    expect(bestReplicas([3, Number.NaN, 1, 2], 0.5)).toEqual([2, 3]);
    expect(bestReplicas([3, 1, 2, 5, 4, 0, 9, 8, 7, 6], 0.85)).toEqual([5, 1, 2, 0, 4, 3, 9, 8, 7]);
  });
});

describe("a fold's loss (n3fit HyperLoss.compute_loss)", () => {
  it('chi2: the best validation average plus the best held-out average above 2', () => {
    // 4 replicas: ⌈0.85·4⌉ = 4 validation losses count, ⌈0.15·4⌉ = 1 held-out loss
    expect(foldLoss(fold([1, 2, 3, 10], [1.5, 3, 2.5, 9]), settings())).toBe(4);
    expect(foldLoss(fold([1, 2, 3, 10], [5, 6, 7, 8]), settings())).toBe(4 + 3);
    // 20 replicas: the 17 best validation losses, and ⌈(1 − 0.85)·20⌉ = ⌈3.0000000000000004⌉ = 4
    // best held-out ones, as numpy computes it
    const validation = Array.from({ length: 20 }, (_, r) => r + 1);
    const heldOut = Array.from({ length: 20 }, (_, r) => 20 - r / 2);
    expect(foldLoss(fold(validation, heldOut), settings())).toBeCloseTo(9 + (11.25 - 2), 12);
  });

  it('adds the penalties per replica to the held-out χ² with penalties_in_loss', () => {
    const penalised = fold([1, 1], [2, 2], { penalties: { patience: [1, 3], saturation: [0, 0] } });
    // ⌈0.15·2⌉ = 1: the best of 2 + 1 = 3 and 2 + 3 = 5 is 3, one above 2
    expect(foldLoss(penalised, settings({ penalties_in_loss: true }))).toBe(1 + 1);
    expect(foldLoss(penalised, settings())).toBe(1);
  });

  it("phi2: φ of the held-out data, plus the penalties' averages", () => {
    const outcome = fold([1, 1], [2, 2], { heldOut: metrics(3, 0.25), penalties: { p: [1, 3] } });
    expect(foldLoss(outcome, settings({ loss_type: 'phi2' }))).toBe(0.25);
    expect(foldLoss(outcome, settings({ loss_type: 'phi2', penalties_in_loss: true }))).toBe(2.25);
  });
});

describe("a trial's loss (n3fit hyperparametrizable)", () => {
  it('averages the folds and adds 100·(χ² of the fitted data − 1.2) when above', () => {
    const folds = [fold([1], [1]), fold([2], [1]), fold([3], [1])].map((each) => ({
      ...each,
      fitted: metrics(1.7),
    }));
    const loss = trialLoss(folds, settings());
    expect(loss.status).toBe('ok');
    expect(loss.foldLosses).toEqual([1, 2, 3]);
    expect(loss.loss).toBeCloseTo(2 + 50, 10);
    expect(fittedDataPenalty(2.2)).toBeCloseTo(100, 12);
    // below the reference, elu's α = 1e-10 makes it vanish
    expect(Math.abs(fittedDataPenalty(1))).toBeLessThan(1e-8);
  });

  it('fails at the first fold above the threshold, multiplying the losses so far by K − k', () => {
    const folds = [fold([10], [1]), fold([60], [1]), fold([5], [1])];
    const loss = trialLoss(folds, settings());
    expect(loss.status).toBe('fail');
    expect(loss.thresholdFold).toBe(1);
    expect(loss.foldLosses).toEqual([20, 120]);
    expect(loss.loss).toBeCloseTo(70, 6);
  });

  it("weights a partition's loss before the threshold check", () => {
    const weighted = settings({
      partitions: [
        { datasets: ['A'], weight: 1, overfit: false },
        { datasets: ['B'], weight: 6, overfit: false },
      ],
    });
    const loss = trialLoss([fold([2], [1]), fold([10], [1])], weighted);
    expect(loss.foldLosses).toEqual([2, 60]);
    expect(loss.status).toBe('fail');
  });

  it('takes the reciprocal of the fold statistic for phi2, and target as older runcards name it', () => {
    const folds = [
      fold([1], [1], { heldOut: metrics(3, 0.5) }),
      fold([1], [1], { heldOut: metrics(3, 0.25) }),
    ];
    const twoFolds = { partitions: settings().partitions.slice(0, 2) };
    expect(trialLoss(folds, settings({ ...twoFolds, loss_type: 'phi2' })).loss).toBeCloseTo(
      1 / 0.375,
      8,
    );
    const worst = settings({ ...twoFolds, target: 'best_worst' });
    expect(trialLoss([fold([1], [1]), fold([4], [1])], worst).loss).toBeCloseTo(4, 8);
  });

  it('fails a trial one of whose folds has no loss, naming why', () => {
    const outcome = trialOutcome(
      [
        { outcome: fold([1], [1]), failure: undefined },
        { outcome: fold([Number.NaN], [1]), failure: 'every replica of fold 2 diverged' },
      ],
      settings(),
    );
    expect(outcome).toEqual({ failure: 'every replica of fold 2 diverged' });
    const notFinite = trialOutcome(
      [{ outcome: fold([Number.NaN], [1]), failure: undefined }],
      settings(),
    );
    expect('failure' in notFinite && notFinite.failure).toMatch(/not finite/);
  });
});

describe("a trial's outcome from folds that may have failed", () => {
  it('keeps the penalised loss of a trial above the threshold whose later fold diverged', () => {
    const outcome = trialOutcome(
      [
        { outcome: fold([60], [1]), failure: undefined },
        { outcome: fold([Number.NaN], [1]), failure: 'every replica of fold 2 diverged' },
        { outcome: fold([1], [1]), failure: undefined },
      ],
      settings(),
    );
    // n3fit never trains fold 2: 60 · (3 − 0) = 180 plus the fitted-data penalty of 1 (none)
    expect(outcome).toMatchObject({ status: 'fail', foldLosses: [180], thresholdFold: 0 });
  });
});
