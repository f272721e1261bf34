import type { FitInputs } from '@partonfit/fktables';
import { selectInputRows } from '@partonfit/fktables';
import { INTEGRABILITY_X_GRID } from '@partonfit/fit-folder';
import {
  replicaPredictions,
  trainReplicas,
  type TrainingProgress,
  type TrainingResult,
} from '@partonfit/trainer';
import { chi2WithCholesky, residuals } from '../loss/fold-covariance.js';
import { hyperMetrics } from '../loss/hyper-metrics.js';
import { bestReplicas } from '../loss/statistics.js';
import type { FoldOutcome, KfoldSettings } from '../loss/trial-loss.js';
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

/** x·f of every row at some x, float64 `(rows, x, flavour)`. */
async function pdfAt(result: TrainingResult, x: Float64Array): Promise<Float64Array> {
  const xf = result.model.at(x);
  try {
    return Float64Array.from(await xf.data());
  } finally {
    xf.dispose();
  }
}

/** The rows' slice of a `(rows, width)` array, as one array `(selected rows, width)`. */
function rowsOf(values: Float64Array, width: number, rows: readonly number[]): Float64Array {
  const out = new Float64Array(rows.length * width);
  rows.forEach((row, r) => {
    out.set(values.subarray(row * width, (row + 1) * width), r * width);
  });
  return out;
}

/** Why a fold has no loss: every replica diverged before a best epoch, or nothing is finite. */
function foldFailure(
  result: TrainingResult,
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

/**
 * Trains a batch of trials as one multi-replica model — every (trial, fold, replica) a row with
 * its trial's settings, its fold's training mask and its own stopping — and measures each trial
 * as n3fit 4.1.5's k-folding does (see `trialLoss`), from the replicas' best weights.
 */
export async function trainBatch(
  batch: SlotBatch,
  settings: KfoldSettings,
  options: TrainBatchOptions,
): Promise<BatchOutcome> {
  const inputs = selectInputRows(options.inputs, batch.inputRows, batch.rows);
  const result = await trainReplicas(batch.runcard, inputs, {
    // one network per optimiser, so that a batch's many architectures train in few networks,
    // and the trials taken out of the model as they end
    model: { networkSeeds: batch.networkSeeds, networkGroups: 'optimizer' },
    retireEndedReplicas: true,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  try {
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
    const rowOfSlot = new Map(batch.rows.map((slot, row) => [slot, row]));
    const pairs = [
      ...new Map(batch.slots.map((slot) => [`${slot.trial}/${slot.fold}`, slot])).values(),
    ];
    const folds = pairs.map(({ trial, fold }): TrainedFold => {
      const data = options.foldData[fold];
      const rows = batch.slots.flatMap((slot, s) =>
        slot.trial === trial && slot.fold === fold ? [rowOfSlot.get(s + 1) ?? -1] : [],
      );
      const validationLosses = rows.map((row) => result.chi2PerPoint.validation[row]);
      const heldOutResiduals = residuals(data.heldOut, predictions, inputs.ndata, rows);
      const experimentalLosses = heldOutResiduals.map(
        (residual) => chi2WithCholesky(data.heldOut.cholesky, residual) / residual.length,
      );
      const atPoints = (points: Int32Array, row: number) =>
        Float64Array.from(points, (i) => predictions[row * inputs.ndata + i]);
      const best = bestReplicas(validationLosses, settings.reduce_proportion).map((r) => rows[r]);
      const penalties: Record<string, number[]> = {};
      for (const name of settings.penalties) {
        if (name === 'saturation' && saturation !== undefined) {
          penalties[name] = saturationPenalties(
            rowsOf(saturation, SATURATION_X_GRID.length * EVOLUTION_BASIS_SIZE, rows),
            rows.length,
          );
        } else if (name === 'integrability' && integrability !== undefined) {
          penalties[name] = integrabilityPenalties(
            rowsOf(integrability, INTEGRABILITY_X_GRID.length * EVOLUTION_BASIS_SIZE, rows),
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
    return { folds };
  } finally {
    result.objective.dispose();
    result.model.dispose();
  }
}
