import type { Runcard } from '@partonfit/core';
import type { HyperMetrics } from './hyper-metrics.js';
import { bestReplicas, sortKey, statistic } from './statistics.js';

/** A scan's `kfold` settings, validated. */
export type KfoldSettings = NonNullable<Runcard['kfold']>;

/** What one fold of a trial gave. */
export interface FoldOutcome {
  /** Each replica's validation χ²/n at its best epoch, `(replicas)`. */
  readonly validationLosses: readonly number[];
  /** Each replica's χ²/n on the held-out partition, `(replicas)`. */
  readonly experimentalLosses: readonly number[];
  /** Each penalty the runcard asks for, per replica. */
  readonly penalties: Readonly<Record<string, readonly number[]>>;
  /** The metrics of the best replicas (by validation, `reduce_proportion`) on the held-out data. */
  readonly heldOut: HyperMetrics;
  /** The metrics of every replica on the fitted (training and validation) data. */
  readonly fitted: HyperMetrics;
}

/** How a trial ended, with every number of its `tries.json` entry. */
export interface TrialLoss {
  /** `ok`, or `fail` above the threshold (the loss then penalised) or when it could not be computed. */
  readonly status: 'ok' | 'fail';
  /** The loss hyperopt minimises. */
  readonly loss: number;
  /** The fold losses, each weighted, the ones before a threshold failure multiplied as n3fit does. */
  readonly foldLosses: readonly number[];
  /** The fold whose loss passed the threshold (later folds do not count), if one did. */
  readonly thresholdFold: number | undefined;
}

/** n3fit's `LossHyperopt`: c · elu(χ² − χ²_ref) with c = 100, χ²_ref = 1.2, α = 1e-10. */
export function fittedDataPenalty(chi2: number): number {
  const x = chi2 - 1.2;
  return 100 * (x > 0 ? x : 1e-10 * Math.expm1(x));
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * One fold's loss as n3fit 4.1.5's `HyperLoss.compute_loss` makes it. `chi2`: the statistic over
 * the best `reduce_proportion` replicas' validation χ², plus how far the statistic over the best
 * `1 − reduce_proportion` replicas' held-out χ² is above 2. `phi2`: φ of the best replicas on the
 * held-out data. With `penalties_in_loss` the penalties are added (per replica to the held-out χ²,
 * as averages to φ).
 */
export function foldLoss(fold: FoldOutcome, settings: KfoldSettings): number {
  const overReplicas = statistic(settings.replica_statistic);
  const names = Object.keys(fold.penalties);
  const experimental = fold.experimentalLosses.map(
    (loss, r) =>
      loss + (settings.penalties_in_loss ? sum(names.map((name) => fold.penalties[name][r])) : 0),
  );
  if (settings.loss_type === 'phi2') {
    const penalty = settings.penalties_in_loss
      ? sum(names.map((name) => sum(fold.penalties[name]) / fold.penalties[name].length))
      : 0;
    return fold.heldOut.phi + penalty;
  }
  const best = bestReplicas(fold.validationLosses, settings.reduce_proportion);
  const validation = overReplicas(best.map((r) => fold.validationLosses[r]));
  const select = Math.ceil((1 - settings.reduce_proportion) * experimental.length);
  const bestExperimental = [...experimental]
    .sort((a, b) => sortKey(a) - sortKey(b))
    .slice(0, Math.max(select, 1));
  return validation + (Math.max(overReplicas(bestExperimental), 2) - 2);
}

/** Fold `k`'s loss times its partition's `weight`: what n3fit compares with the threshold. */
export function weightedFoldLoss(fold: FoldOutcome, k: number, settings: KfoldSettings): number {
  return foldLoss(fold, settings) * (settings.partitions[k]?.weight ?? 1);
}

/**
 * A trial's loss from its folds, as n3fit 4.1.5's `hyperparametrizable` makes it: each fold's
 * loss times its partition's `weight`; the first fold above `threshold` fails the trial, the
 * losses so far multiplied by the number of folds not passed (K − k) and the later folds dropped;
 * then the statistic over folds (its reciprocal for `phi2`) plus {@link fittedDataPenalty} of the
 * counted folds' mean χ² on the fitted data.
 */
export function trialLoss(folds: readonly FoldOutcome[], settings: KfoldSettings): TrialLoss {
  let losses: number[] = [];
  let thresholdFold: number | undefined;
  for (const [k, fold] of folds.entries()) {
    const loss = weightedFoldLoss(fold, k, settings);
    losses.push(loss);
    if (loss > settings.threshold) {
      thresholdFold = k;
      losses = losses.map((each) => each * (settings.partitions.length - k));
      break;
    }
  }
  const overFolds = statistic(settings.fold_statistic ?? settings.target ?? 'average');
  const reduced = settings.loss_type === 'phi2' ? 1 / overFolds(losses) : overFolds(losses);
  const fitted = folds.slice(0, losses.length).map((fold) => fold.fitted.chi2exp);
  return {
    status: thresholdFold === undefined ? 'ok' : 'fail',
    loss: reduced + fittedDataPenalty(sum(fitted) / fitted.length),
    foldLosses: losses,
    thresholdFold,
  };
}

/** A trained fold: its outcome, and why it has no loss if it has none. */
interface TrainedFoldOutcome {
  readonly outcome: FoldOutcome;
  readonly failure: string | undefined;
}

/**
 * Whether fold `k` ends its trial when n3fit reaches it: every replica diverged (`failure`), or
 * its weighted loss is above the threshold. n3fit trains no fold after it.
 */
export function foldEndsTrial(
  fold: TrainedFoldOutcome,
  k: number,
  settings: KfoldSettings,
): boolean {
  return (
    fold.failure !== undefined || weightedFoldLoss(fold.outcome, k, settings) > settings.threshold
  );
}

/**
 * The folds of a trial n3fit trains, in partition order: up to and with the first that
 * {@link foldEndsTrial ends the trial}, all when none does.
 */
export function foldsTrained<T extends TrainedFoldOutcome>(
  folds: readonly T[],
  settings: KfoldSettings,
): readonly T[] {
  const end = folds.findIndex((fold, k) => foldEndsTrial(fold, k, settings));
  return end < 0 ? folds : folds.slice(0, end + 1);
}

/**
 * A trial's outcome from its folds, in partition order, as n3fit meets them: a fold's failure
 * (every replica diverged) fails the trial unless an earlier fold already passed the threshold
 * (n3fit never trains the folds after it); else {@link trialLoss}, itself a failure when the
 * loss is not finite.
 */
export function trialOutcome(
  folds: readonly TrainedFoldOutcome[],
  settings: KfoldSettings,
): TrialLoss | { readonly failure: string } {
  const trained = foldsTrained(folds, settings);
  const failure = trained.find((fold) => fold.failure !== undefined)?.failure;
  if (failure !== undefined) return { failure };
  const loss = trialLoss(
    trained.map((fold) => fold.outcome),
    settings,
  );
  return Number.isFinite(loss.loss)
    ? loss
    : { failure: `the loss is not finite (${loss.loss}): some predictions or χ² are not` };
}
