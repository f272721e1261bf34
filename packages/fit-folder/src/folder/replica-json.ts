import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { ARC_LENGTH_FLAVOURS, INTEGRABILITY_FLAVOURS } from './fit-quality.js';

/** A replica's positivity verdict: `POS_PASS` when it has a best epoch, else `POS_VETO`. */
export type PositivityState = 'POS_PASS' | 'POS_VETO';

/** The preprocessing exponents one replica used for one fitted flavour. */
export interface PreprocessingRecord {
  /** The fitted flavour as in the runcard's `fitting.basis` (`sng`, `g`, `v`, `v3`, …). */
  readonly flavour: string;
  /** The small-x exponent α (the prefactor is x^(1−α)). */
  readonly smallX: number;
  /** The large-x exponent β (the prefactor is (1−x)^β). */
  readonly largeX: number;
  /** Whether the exponents were trained. */
  readonly trainable: boolean;
}

/** Wall and CPU times in seconds of named events since the start (upstream's `StopWatch`). */
export interface FitTiming {
  /** Wall-clock seconds, e.g. `{ Total, start, replica_set, replica_fitted, … }`. */
  readonly walltime: Readonly<Record<string, number>>;
  /** CPU seconds of the process, same keys. */
  readonly cputime: Readonly<Record<string, number>>;
}

/** What one replica's `<fit>.json` records. */
export interface ReplicaSummary {
  /** The preprocessing exponents per fitted flavour, in the runcard's basis order. */
  readonly preprocessing: readonly PreprocessingRecord[];
  /** The epoch at which training stopped (upstream: the number of epochs run). */
  readonly stopEpoch: number;
  /** The epoch of the best validation loss (upstream: 0-based; the last epoch if none). */
  readonly bestEpoch: number;
  /** Training χ² per training point at the best epoch (`erf_tr`). */
  readonly trainingChi2: number;
  /** Validation χ² per validation point at the best epoch (`erf_vl`). */
  readonly validationChi2: number;
  /** χ² per point of the replica against the central experimental data (`chi2`). */
  readonly experimentalChi2: number;
  /** The positivity verdict (`pos_state`). */
  readonly positivity: PositivityState;
  /** Arc lengths of Σ, g, V, V3, V8 (from `arcLengths`), shape (5). */
  readonly arcLengths: ArrayLike<number>;
  /** Integrability numbers of V, T3, V3, T8, V8 (from `integrabilityNumbers`), shape (5). */
  readonly integrability: ArrayLike<number>;
  /** Wall and CPU times of the fit's events. */
  readonly timing: FitTiming;
  /** The replica's hyperparameters; upstream writes `"from runcard"` unless hyperoptimised. */
  readonly hyperparameters?: string | Readonly<Record<string, unknown>>;
  /** The tfjs backend that ran the fit (`tensorflow`, `wasm`, `cpu`). */
  readonly backend: string;
  /** Versions of the software, e.g. `{ partonfit, "@tensorflow/tfjs-core", node }`. */
  readonly version: Readonly<Record<string, string>>;
  /**
   * The epoch at which the replica diverged (its training or validation loss stopped being
   * finite), written as `diverged_epoch`; absent for a replica that trained to the end. Postfit
   * never keeps a diverged replica.
   */
  readonly divergedEpoch?: number;
  /**
   * SHA-256 of the runcard's settings the replica was fitted with, written as `runcard_sha256`,
   * so that postfit can refuse a folder that mixes replicas of two runcards.
   */
  readonly runcardSha256?: string;
}

function checkEpoch(value: number, argument: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected a non-negative integer epoch, got ${value}`,
    });
  }
  return value;
}

function checkLength(values: ArrayLike<number>, quantity: string, size: number): number[] {
  if (values.length !== size) {
    throw new ShapeError({
      quantity,
      expected: [size],
      actual: [values.length],
      axes: '(flavour)',
    });
  }
  return Array.from(values);
}

/**
 * The `preprocessing` entry of a replica's `<fit>.json`: per fitted flavour
 * `{ fl, smallx, largex, trainable }`, as upstream writes it.
 */
export function preprocessingJson(
  records: readonly PreprocessingRecord[],
): { fl: string; smallx: number; largex: number; trainable: boolean }[] {
  return records.map(({ flavour, smallX, largeX, trainable }) => ({
    fl: flavour,
    smallx: smallX,
    largex: largeX,
    trainable,
  }));
}

/**
 * The text of one replica's `<fit>.json`, with upstream n3fit's keys in upstream's order
 * (`jsonfit` in `n3fit/src/n3fit/io/writer.py`) plus `backend`:
 *
 * ```
 * { "preprocessing": [{ "fl", "smallx", "largex", "trainable" }, …],
 *   "stop_epoch", "best_epoch", "erf_tr", "erf_vl", "chi2", "pos_state", ["diverged_epoch",]
 *   "arc_lengths": [Σ, g, V, V3, V8], "integrability": [V, T3, V3, T8, V8],
 *   "timing": { "walltime": {…}, "cputime": {…} }, "hyperparameters", "backend", "version",
 *   ["runcard_sha256"] }
 * ```
 *
 * `diverged_epoch` and `runcard_sha256` are partonfit's and written only when given.
 * Indented by two spaces and ending with a newline, as upstream writes it. Numbers are
 * JavaScript's shortest round-trip form; a non-finite χ² (a replica that diverged) is written as
 * `null`, since JSON has no NaN (upstream's Python writes a bare `NaN`); so are the arc lengths
 * and integrability numbers of a diverged replica without finite weights.
 *
 * @throws InvalidArgumentError for a negative or non-integer epoch
 * @throws ShapeError when the arc lengths or integrability numbers are not 5 values
 */
export function replicaJson(summary: ReplicaSummary): string {
  const document = {
    preprocessing: preprocessingJson(summary.preprocessing),
    stop_epoch: checkEpoch(summary.stopEpoch, 'stopEpoch'),
    best_epoch: checkEpoch(summary.bestEpoch, 'bestEpoch'),
    erf_tr: summary.trainingChi2,
    erf_vl: summary.validationChi2,
    chi2: summary.experimentalChi2,
    pos_state: summary.positivity,
    ...(summary.divergedEpoch === undefined
      ? {}
      : { diverged_epoch: checkEpoch(summary.divergedEpoch, 'divergedEpoch') }),
    arc_lengths: checkLength(summary.arcLengths, 'arcLengths', ARC_LENGTH_FLAVOURS.length),
    integrability: checkLength(
      summary.integrability,
      'integrability',
      INTEGRABILITY_FLAVOURS.length,
    ),
    timing: summary.timing,
    hyperparameters: summary.hyperparameters ?? 'from runcard',
    backend: summary.backend,
    version: summary.version,
    ...(summary.runcardSha256 === undefined ? {} : { runcard_sha256: summary.runcardSha256 }),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
