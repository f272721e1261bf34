import type { RunFingerprint } from './run-fingerprint.js';

/** Default epochs between two checkpoints. */
export const CHECKPOINT_EVERY = 1000;

/** The checkpoint format written in the file's `format` attribute; others are refused. */
export const CHECKPOINT_FORMAT = 'partonfit-checkpoint-1';

/** A float32 array with its shape, values in C (row-major) order, exactly as on the device. */
export interface CheckpointArray {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/** One read-back of the training: every replica's χ² per point at that epoch. */
export interface TrainingHistoryEntry {
  /** Epochs done. */
  readonly epoch: number;
  /** Training χ² per training point, (replicas). */
  readonly training: Float32Array;
  /** Validation χ² per validation point, (replicas). */
  readonly validation: Float32Array;
}

/** The early-stopping state of every replica, each per-replica array `(replicas)` float32. */
export interface StoppingCheckpoint {
  readonly bestValidation: Float32Array;
  /** −1 while a replica has no best epoch. */
  readonly bestEpoch: Float32Array;
  /** −1 while a replica still trains. */
  readonly stopEpoch: Float32Array;
  /** Epochs since the best epoch. */
  readonly waiting: Float32Array;
  /** 1 once a replica has had a best epoch. */
  readonly counting: Float32Array;
  /** 1 where the training loss became NaN. */
  readonly failed: Float32Array;
  /** The best weights so far, by the model's weight names, each `(replicas, …)`. */
  readonly bestWeights: ReadonlyMap<string, CheckpointArray>;
}

/**
 * Everything needed to continue a fit exactly where it was: the epoch reached, every model
 * weight, the optimiser's statistics and step, the stopping state, the Lagrange multipliers and
 * the history of read-backs — the loop has no other state (no random numbers per step; the
 * preprocessing clipping and the multiplier schedule depend only on the weights and the epoch).
 * Weights are named as {@link ReplicaPdfModel.namedWeights} (`network/kernel_0`,
 * `preprocessing/alpha_g`), replicas on the first axis.
 */
export interface TrainingCheckpoint {
  /** The fit it belongs to. */
  readonly fingerprint: RunFingerprint;
  /** Epochs done: training continues with epoch index `epoch`. */
  readonly epoch: number;
  /** Wall time of the training loop so far, in seconds. */
  readonly seconds: number;
  /**
   * Every model weight (trainable or not) by name, `(replicas, …)` — a network group's weights
   * hold its own replicas (`network_<g>/kernel_0`) when the replicas have different networks.
   */
  readonly weights: ReadonlyMap<string, CheckpointArray>;
  /** The optimiser's state. */
  readonly optimizer: {
    /** Its name (`Nadam`, …). */
    readonly name: string;
    /** Updates applied so far. */
    readonly step: number;
    /** Statistic (Keras name) → trainable weight name → values `(replicas, …)`. */
    readonly slots: ReadonlyMap<string, ReadonlyMap<string, CheckpointArray>>;
  };
  /** The stopping state. */
  readonly stopping: StoppingCheckpoint;
  /**
   * λ of every positivity and integrability set (`positivity/<set>`), float32 values: one, or
   * one per replica where the replicas' multiplier schedules differ.
   */
  readonly multipliers: ReadonlyMap<string, Float32Array>;
  /** The read-backs so far, in epoch order. */
  readonly history: readonly TrainingHistoryEntry[];
}
