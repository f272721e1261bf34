import { parseTries } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import type { FoldOutcome } from '../loss/trial-loss.js';
import { finishedTrials, trialDocument, triesJson, type TrialRecord } from './trial-document.js';

const FOLD: FoldOutcome = {
  validationLosses: [1.5, 2.5],
  experimentalLosses: [3, 5],
  penalties: { patience: [0.1, 0.2] },
  heldOut: { chi2: 3.5, phi: 0.3, logp: 2, chi2exp: 3.9 },
  fitted: { chi2: 1.1, phi: 0.2, logp: 1, chi2exp: 1.3 },
};

function record(changes: Partial<TrialRecord> = {}): TrialRecord {
  return {
    tid: 7,
    point: { optimizer: 1, Adam_learning_rate: 0.002, epochs: 900 },
    labels: ['optimizer', 'Nadam_learning_rate', 'Adam_learning_rate', 'epochs'],
    spaceValues: { optimizer: { optimizer_name: 'Adam', learning_rate: 0.002 }, epochs: 900 },
    folds: [FOLD, { ...FOLD, validationLosses: [0.5, 1.5] }],
    outcome: { status: 'ok', loss: 4.25, foldLosses: [4, 4.5], thresholdFold: undefined },
    bookTime: new Date('2026-11-28T10:00:00Z'),
    refreshTime: new Date('2026-11-28T10:01:30Z'),
    batch: 3,
    seconds: 90,
    ...changes,
  };
}

describe("a trial's document in tries.json (n3fit's FileTrials layout)", () => {
  it("holds hyperopt's fields and n3fit's kfold_meta, and core's reader reads it", () => {
    const document = trialDocument(record());
    expect(document.state).toBe(2);
    expect(document.misc.vals).toEqual({
      optimizer: [1],
      Nadam_learning_rate: [],
      Adam_learning_rate: [0.002],
      epochs: [900],
    });
    expect(document.misc.idxs.Nadam_learning_rate).toEqual([]);
    expect(document.misc.idxs.epochs).toEqual([7]);
    expect(document.result.validation_loss).toBe(1.5);
    expect(document.result.experimental_loss).toBe(4);
    expect(document.result.kfold_meta.hyper_losses_phi2).toEqual([0.3, 0.3]);
    expect(document.result.kfold_meta.trvl_losses_chi2exp).toEqual([1.3, 1.3]);
    expect(document.result.kfold_meta.penalties).toEqual({
      patience: [
        [0.1, 0.2],
        [0.1, 0.2],
      ],
    });
    expect(document.result.kfold_meta.fold_losses).toEqual([4, 4.5]);
    expect(document.book_time).toBe('2026-11-28 10:00:00.000000');
    const [trial] = parseTries(triesJson([document]), 'tries.json').trials;
    expect(trial).toMatchObject({ tid: 7, state: 2, status: 'ok', loss: 4.25 });
    expect(trial.parameters).toEqual(record().spaceValues);
  });

  it('records a failure with its reason and no loss, and the sampler reads it as failed', () => {
    const failed = trialDocument(
      record({ outcome: { failure: 'every replica of fold 2 diverged' } }),
    );
    const text = triesJson([failed]);
    expect(text).toContain('"loss":null');
    const [trial] = finishedTrials(JSON.parse(text) as unknown[]);
    expect(trial.status).toBe('fail');
    expect(Number.isNaN(trial.loss)).toBe(true);
    expect(trial.point).toEqual({ optimizer: 1, Adam_learning_rate: 0.002, epochs: 900 });
    expect(failed.result.partonfit.failure).toBe('every replica of fold 2 diverged');
  });
});
