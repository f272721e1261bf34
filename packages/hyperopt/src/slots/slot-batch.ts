import { parseDocument } from 'yaml';
import { deriveNamedSeed, deriveReplicaSeed, parseRuncard, type Runcard } from '@partonfit/core';
import type { DataFolds } from '@partonfit/fktables';
import { replicaTrainingOrder } from '@partonfit/trainer';

/** One replica slot of a scan's model: a replica of a trial's fit on one fold. */
export interface ScanSlot {
  /** The trial, an index into the batch's trials. */
  readonly trial: number;
  /** The fold (partition held out), an index into `kfold.partitions`. */
  readonly fold: number;
  /** The replica, 1-based: its pseudodata and training/validation split. */
  readonly replica: number;
}

/** A batch of trials laid out as the rows of one multi-replica model. */
export interface SlotBatch {
  /**
   * The scan runcard with `parameters_per_replica` holding each slot's trial settings: slot
   * number s (1-based) is `slots[s − 1]` and takes entry s − 1.
   */
  readonly runcard: Runcard;
  /** Every slot, trial by trial, fold by fold, replica by replica. */
  readonly slots: readonly ScanSlot[];
  /** The slot numbers in the model's row order (`replicaTrainingOrder`). */
  readonly rows: readonly number[];
  /** Each row's row of the scan's inputs ({@link scanInputLayout}), in row order. */
  readonly inputRows: readonly number[];
  /** Each row's network seed, in row order (see {@link slotNetworkSeed}). */
  readonly networkSeeds: readonly number[];
}

/** The rows of a scan's fit inputs: every fold's replicas, fold by fold. */
export interface ScanInputLayout {
  /** Each row's replica. */
  readonly replicas: readonly number[];
  /** The folds, with each row's fold. */
  readonly folds: DataFolds;
}

/**
 * The fit inputs a scan builds once: row k·R + r − 1 is replica r (its pseudodata and split)
 * without partition k's datasets, so that every batch's slots are rows of it.
 *
 * @param replicas - replicas per trial and fold, R
 */
export function scanInputLayout(runcard: Runcard, replicas: number): ScanInputLayout {
  const partitions = runcard.kfold?.partitions ?? [];
  const rows = batchSlots(1, allFolds(partitions.length), replicas);
  return {
    replicas: rows.map((slot) => slot.replica),
    folds: {
      datasets: partitions.map((partition) => partition.datasets),
      overfit: partitions.map((partition) => partition.overfit),
      rowFold: rows.map((slot) => slot.fold),
    },
  };
}

/**
 * The network seed of a replica in a fold: the fit's `deriveReplicaSeed(nnseed, 'nnseed', r)`
 * in the first fold — so a one-fold trial starts as `partonfit fit` replica r — and a seed
 * derived from it by the fold's number in the others (n3fit also reseeds every fold). It does not
 * depend on the trial, nor on the other slots of the batch.
 */
export function slotNetworkSeed(nnseed: number, replica: number, fold: number): number {
  const seed = deriveReplicaSeed(nnseed, 'nnseed', replica);
  return fold === 0 ? seed : deriveNamedSeed(seed, `fold ${fold}`);
}

/** The batch's slots: each trial's folds, each fold's replicas. */
export function batchSlots(trials: number, folds: readonly number[], replicas: number): ScanSlot[] {
  return Array.from({ length: trials * folds.length * replicas }, (_, s) => ({
    trial: Math.floor(s / (folds.length * replicas)),
    fold: folds[Math.floor(s / replicas) % folds.length] ?? 0,
    replica: (s % replicas) + 1,
  }));
}

/** The folds 0 … K − 1. */
function allFolds(count: number): number[] {
  return Array.from({ length: count }, (_, k) => k);
}

/**
 * Lays out a batch of trials as one model's rows.
 *
 * @param runcardText - the scan runcard's text; the slots' settings are written into its
 *   `parameters_per_replica` and the result validated as any runcard
 * @param file - the runcard's file, for messages
 * @param trialEntries - each trial's settings, merged onto `parameters` as a
 *   `parameters_per_replica` entry
 * @param replicas - replicas per trial and fold
 * @param folds - the folds to train (default every partition's)
 */
export function slotBatch(
  runcardText: string,
  file: string,
  trialEntries: readonly Readonly<Record<string, unknown>>[],
  replicas: number,
  folds?: readonly number[],
): SlotBatch {
  const document = parseDocument(runcardText, { version: '1.2' });
  const partitions = (document.toJS() as { kfold?: { partitions?: unknown[] } }).kfold?.partitions;
  const slots = batchSlots(
    trialEntries.length,
    folds ?? allFolds(partitions?.length ?? 1),
    replicas,
  );
  document.setIn(
    ['parameters_per_replica'],
    slots.map((slot) => trialEntries[slot.trial]),
  );
  const { runcard } = parseRuncard(String(document), { file });
  const rows = replicaTrainingOrder(
    runcard,
    slots.map((_, s) => s + 1),
  );
  const slotOf = (row: number) => slots[row - 1];
  return {
    runcard,
    slots,
    rows,
    inputRows: rows.map((row) => slotOf(row).fold * replicas + slotOf(row).replica - 1),
    networkSeeds: rows.map((row) =>
      slotNetworkSeed(runcard.nnseed, slotOf(row).replica, slotOf(row).fold),
    ),
  };
}
