import type { FitInputs } from '@partonfit/fktables';
import { selectInputRows } from '@partonfit/fktables';
import { INTEGRABILITY_X_GRID } from '@partonfit/fit-folder';
import {
  replicaPredictions,
  trainReplicas,
  type EndingReplicas,
  type TrainingProgress,
  type TrainingResult,
} from '@partonfit/trainer';
import { chi2WithCholesky, residuals } from '../loss/fold-covariance.js';
import { hyperMetrics } from '../loss/hyper-metrics.js';
import { bestReplicas } from '../loss/statistics.js';
import { foldEndsTrial, type FoldOutcome, type KfoldSettings } from '../loss/trial-loss.js';
import { EVOLUTION_BASIS_SIZE } from '@partonfit/core';
import {
  integrabilityPenalties,
  patiencePenalty,
  SATURATION_X_GRID,
  saturationPenalties,
} from '../penalties/penalties.js';
import type { SlotBatch } from '../slots/slot-batch.js';
import type { FoldData } from './fold-data.js';

/** One trained fold of a trial: its outcome, and why it has no loss if it has none. */
export interface TrainedFold {
  /** The trial, an index into the batch's trials. */
  readonly trial: number;
  /** The fold, an index into the partitions. */
  readonly fold: number;
  readonly outcome: FoldOutcome;
  /** Why the fold has no loss (every replica diverged), if so. */
  readonly failure: string | undefined;
}

/** A trained batch. */
export interface BatchOutcome {
  /** Every (trial, fold) of the batch, trial by trial. */
  readonly folds: readonly TrainedFold[];
}

/** What {@link trainBatch} needs besides the batch. */
export interface TrainBatchOptions {
  /** The scan's inputs, laid out by `scanInputLayout`. */
  readonly inputs: FitInputs;
  /** Each fold's held-out and fitted data (`foldData` of the inputs). */
  readonly foldData: readonly FoldData[];
  /** Replicas per trial and fold. */
  readonly replicas: number;
  /** Called at every read-back of the training. */
  readonly onProgress?: ((progress: TrainingProgress) => void) | undefined;
  /** Stops the training (see `trainReplicas`). */
  readonly signal?: AbortSignal | undefined;
}

/** What the fold outcomes are read from: a model of some rows with their best weights. */
type RowsResult = Pick<TrainingResult, 'model' | 'objective' | 'stopping' | 'chi2PerPoint'>;

/** x·f of every row at some x, float64 `(rows, x, flavour)`. */
async function pdfAt(result: RowsResult, x: Float64Array): Promise<Float64Array> {
  const xf = result.model.at(x);
  try {
    return Float64Array.from(await xf.data());
  } finally {
    xf.dispose();
  }
}

/** The rows' slice of a `(rows, width)` array, as one array `(selected rows, width)`. */
function selectRows(values: Float64Array, width: number, rows: readonly number[]): Float64Array {
  const out = new Float64Array(rows.length * width);
  rows.forEach((row, r) => {
    out.set(values.subarray(row * width, (row + 1) * width), r * width);
  });
  return out;
}

/** Why a fold has no loss: every replica diverged before a best epoch, or nothing is finite. */
function foldFailure(
  result: RowsResult,
  rows: readonly number[],
  fold: number,
): string | undefined {
  const { failed, bestEpoch, stopEpoch } = result.stopping;
  if (rows.every((row) => failed[row] !== 0 && bestEpoch[row] < 0)) {
    const epochs = rows.map((row) => stopEpoch[row]).join(', ');
    return `every replica of fold ${fold + 1} diverged (its loss stopped being finite at epoch ${epochs}) before a best epoch`;
  }
  return undefined;
}

/** A (trial, fold) of a batch. */
interface TrialFold {
  readonly trial: number;
  readonly fold: number;
}

/**
 * Each (trial, fold) of `pairs` measured from `result` as n3fit 4.1.5's k-folding does (see
 * `trialLoss`): `rowsOfPair` gives the pair's rows of the result's model.
 */
async function foldOutcomes(
  result: RowsResult,
  ndata: number,
  pairs: readonly TrialFold[],
  rowsOfPair: (pair: TrialFold) => number[],
  settings: KfoldSettings,
  foldData: readonly FoldData[],
): Promise<TrainedFold[]> {
  const fitted = result.model.forward();
  const predictions = await replicaPredictions(result.objective, fitted);
  fitted.dispose();
  const saturation = settings.penalties.includes('saturation')
    ? await pdfAt(result, SATURATION_X_GRID)
    : undefined;
  const integrability = settings.penalties.includes('integrability')
    ? await pdfAt(result, INTEGRABILITY_X_GRID)
    : undefined;
  const { methodology } = result.model;
  return pairs.map((pair): TrainedFold => {
    const { trial, fold } = pair;
    const data = foldData[fold];
    const rows = rowsOfPair(pair);
    const validationLosses = rows.map((row) => result.chi2PerPoint.validation[row]);
    const heldOutResiduals = residuals(data.heldOut, predictions, ndata, rows);
    const experimentalLosses = heldOutResiduals.map(
      (residual) => chi2WithCholesky(data.heldOut.cholesky, residual) / residual.length,
    );
    const atPoints = (points: Int32Array, row: number) =>
      Float64Array.from(points, (i) => predictions[row * ndata + i]);
    const best = bestReplicas(validationLosses, settings.reduce_proportion).map((r) => rows[r]);
    const penalties: Record<string, number[]> = {};
    for (const name of settings.penalties) {
      if (name === 'saturation' && saturation !== undefined) {
        penalties[name] = saturationPenalties(
          selectRows(saturation, SATURATION_X_GRID.length * EVOLUTION_BASIS_SIZE, rows),
          rows.length,
        );
      } else if (name === 'integrability' && integrability !== undefined) {
        penalties[name] = integrabilityPenalties(
          selectRows(integrability, INTEGRABILITY_X_GRID.length * EVOLUTION_BASIS_SIZE, rows),
          rows.length,
        );
      } else if (name === 'patience') {
        penalties[name] = rows.map((row) =>
          patiencePenalty({
            validation: result.chi2PerPoint.validation[row],
            bestEpoch: result.stopping.bestEpoch[row],
            epochs: methodology.epochs[row] ?? 0,
            patienceEpochs: methodology.patience[row] ?? 0,
          }),
        );
      }
    }
    return {
      trial,
      fold,
      failure: foldFailure(result, rows, fold),
      outcome: {
        validationLosses,
        experimentalLosses,
        penalties,
        heldOut: hyperMetrics(
          data.heldOut,
          best.map((row) => atPoints(data.heldOut.points, row)),
        ),
        fitted: hyperMetrics(
          data.fitted,
          rows.map((row) => atPoints(data.fitted.points, row)),
        ),
      },
    };
  });
}

/** The (trial, fold) of each model row, in row order. */
function rowPairs(batch: SlotBatch): TrialFold[] {
  return batch.rows.map((slot) => {
    const { trial, fold } = batch.slots[slot - 1];
    return { trial, fold };
  });
}

function sameFold(a: TrialFold, b: TrialFold): boolean {
  return a.trial === b.trial && a.fold === b.fold;
}

/** Each (trial, fold) of `pairs` once, in the order of its first appearance. */
function distinctPairs(pairs: readonly TrialFold[]): TrialFold[] {
  return [...new Map(pairs.map((pair) => [`${pair.trial}/${pair.fold}`, pair])).values()];
}

/**
 * The rows still training to stop when some rows' fit ends, as n3fit never trains a trial's
 * folds after one that ends the trial (`foldEndsTrial`: above the threshold, or every replica
 * diverged). For each (trial, fold) whose rows all ended now (not some earlier) while rows of
 * the trial's later folds train on: the fold's outcome from its best weights, and if it ends the
 * trial, its later folds' rows. Their results would not count, so the trial's loss is the same.
 */
async function laterFoldsToStop(
  ended: EndingReplicas,
  pairs: readonly TrialFold[],
  settings: KfoldSettings,
  foldData: readonly FoldData[],
): Promise<number[]> {
  const endedRows = new Set(ended.rows);
  const candidates = distinctPairs(ended.rows.map((row) => pairs[row])).filter(
    (pair) =>
      pairs.every((other, row) => !sameFold(other, pair) || endedRows.has(row)) &&
      ended.training.some((row) => pairs[row].trial === pair.trial && pairs[row].fold > pair.fold),
  );
  if (candidates.length === 0) return [];
  const position = new Map(ended.rows.map((row, k) => [row, k]));
  const folds = await ended.inspect((alone) =>
    foldOutcomes(
      alone,
      alone.inputs.ndata,
      candidates,
      (pair) =>
        ended.rows.flatMap((row) => (sameFold(pairs[row], pair) ? [position.get(row) ?? -1] : [])),
      settings,
      foldData,
    ),
  );
  const stopAfter = new Map<number, number>();
  for (const trained of folds) {
    const { trial, fold } = trained;
    if (foldEndsTrial(trained, fold, settings)) {
      stopAfter.set(trial, Math.min(fold, stopAfter.get(trial) ?? fold));
    }
  }
  return ended.training.filter(
    (row) => pairs[row].fold > (stopAfter.get(pairs[row].trial) ?? Infinity),
  );
}

/**
 * Trains a batch of trials as one multi-replica model — every (trial, fold, replica) a row with
 * its trial's settings, its fold's training mask and its own stopping — and measures each trial
 * as n3fit 4.1.5's k-folding does (see `trialLoss`), from the replicas' best weights. A trial's
 * folds after one that ends above the threshold stop at once (n3fit would not train them).
 */
export async function trainBatch(
  batch: SlotBatch,
  settings: KfoldSettings,
  options: TrainBatchOptions,
): Promise<BatchOutcome> {
  const inputs = selectInputRows(options.inputs, batch.inputRows, batch.rows);
  const pairs = rowPairs(batch);
  const result = await trainReplicas(batch.runcard, inputs, {
    // one network per optimiser, so that a batch's many architectures train in few networks,
    // and the trials taken out of the model as they end
    model: { networkSeeds: batch.networkSeeds, networkGroups: 'optimizer' },
    retireEndedReplicas: true,
    stopAlongside: (ended) => laterFoldsToStop(ended, pairs, settings, options.foldData),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  try {
    const folds = await foldOutcomes(
      result,
      inputs.ndata,
      distinctPairs(batch.slots),
      (pair) => pairs.flatMap((other, row) => (sameFold(other, pair) ? [row] : [])),
      settings,
      options.foldData,
    );
    return { folds };
  } finally {
    result.objective.dispose();
    result.model.dispose();
  }
}
