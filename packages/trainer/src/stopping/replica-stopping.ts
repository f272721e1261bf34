import * as tf from '@tensorflow/tfjs-core';
import {
  hasStoppingKernels,
  runKeepBestRows,
  runStoppingUpdate,
  STOPPING_STATE,
} from '@partonfit/backend';
import { InvalidArgumentError, positiveInteger, ShapeError } from '@partonfit/core';
import { selectSameShape, spreadReplicaMask } from '../replica-mask/replica-mask.js';

/** The settings of early stopping (upstream n3fit's `Stopping`). */
export interface StoppingSettings {
  /** Number of replicas R. */
  readonly replicas: number;
  /**
   * Epochs without improvement after which a replica stops: `int(epochs · stopping_patience)`,
   * one for all replicas or one per replica `(replicas)`.
   */
  readonly patience: number | readonly number[];
  /**
   * Each replica's epochs `(replicas)`, when they differ: from its last epoch on a replica is
   * finished — its stopping state no longer changes and {@link ReplicaStopping.activeReplicas}
   * freezes its weights — as if its own fit had ended there. Omitted: every replica trains
   * until the loop ends.
   */
  readonly epochs?: readonly number[];
  /** A replica's best epoch only counts once its validation χ²/n is below this (`threshold_chi2`). */
  readonly thresholdChi2: number;
  /** Improvement needed to count as better (`stopping_delta`, default 0). */
  readonly delta?: number;
  /** Every positivity penalty must be below this for an epoch to count (`positivity.threshold`). */
  readonly positivityThreshold: number;
}

/** What one step tells the stopping, every value per replica, shape (replicas). */
export interface StepLosses {
  /** The training loss (χ² plus penalties); NaN or ±Infinity stops the replica as diverged. */
  readonly training: tf.Tensor1D;
  /**
   * The validation loss (validation χ² plus positivity), compared with the best so far; NaN or
   * ±Infinity stops the replica as diverged.
   */
  readonly validation: tf.Tensor1D;
  /** The validation χ² per validation point, compared with `thresholdChi2`. */
  readonly validationChi2PerPoint: tf.Tensor1D;
  /** The largest positivity penalty over the positivity sets. */
  readonly positivity: tf.Tensor1D;
}

/** The stopping state read back to JavaScript (every `log_every` steps and at the end). */
export interface StoppingSnapshot {
  /** Each replica's best validation loss (Infinity until it has one). */
  readonly bestValidation: Float32Array;
  /** Each replica's best epoch, −1 while it has none (upstream POS_VETO). */
  readonly bestEpoch: Int32Array;
  /** The epoch at which each replica stopped, −1 while it still can improve. */
  readonly stopEpoch: Int32Array;
  /** 1 where a replica diverged: its training or validation loss stopped being finite. */
  readonly failed: Uint8Array;
}

/**
 * The whole stopping state on the device, for a checkpoint: every tensor float32, the per-replica
 * ones `(replicas)`, the best weights each of its model weight's shape `(replicas, …)`.
 */
export interface ReplicaStoppingState {
  /** Each replica's best validation loss (Infinity until it has one). */
  readonly bestValidation: tf.Tensor1D;
  /** Each replica's best epoch, −1 while it has none. */
  readonly bestEpoch: tf.Tensor1D;
  /** The epoch at which each replica stopped, −1 while it still can improve. */
  readonly stopEpoch: tf.Tensor1D;
  /** Epochs since each replica's best epoch (patience used up). */
  readonly waiting: tf.Tensor1D;
  /** 1 once a replica has had a best epoch (it counts epochs without improvement from then). */
  readonly counting: tf.Tensor1D;
  /** 1 where a replica diverged: its training or validation loss stopped being finite. */
  readonly failed: tf.Tensor1D;
  /** The snapshot of the best weights, one per tracked weight in the order given at construction. */
  readonly bestWeights: readonly tf.Tensor[];
}

/**
 * The per-replica entries of {@link ReplicaStoppingState}, in a fixed order: the fused stopping
 * kernel's state (`STOPPING_STATE` of `@partonfit/backend`).
 */
export const STOPPING_STATE_KEYS = STOPPING_STATE;

/**
 * Early stopping for all replicas at once, kept on the device: per replica the best validation
 * loss and epoch, a patience counter, and a snapshot of the best weights, all updated with
 * tensor ops and a per-replica `where` — no value is read back per step.
 *
 * A replica's epoch counts as its best when (upstream's rules) it has crossed the χ² threshold
 * once (its validation χ²/n went below `thresholdChi2`), its validation loss improves on its best
 * by more than `delta`, every positivity penalty is below `positivityThreshold`, and it has not
 * stopped. From its first best epoch a replica counts epochs without improvement; when the count
 * exceeds `patience` it stops (its best weights no longer change; it may keep training). A
 * replica whose training or validation loss is not finite (NaN or ±Infinity) has diverged: it
 * stops at once, is marked failed and keeps its last best weights (see
 * {@link ReplicaStopping.activeReplicas}, which freezes it). Nothing couples replicas.
 */
export class ReplicaStopping {
  readonly settings: StoppingSettings;
  private readonly bestValidation: tf.Variable<tf.Rank.R1>;
  private readonly bestEpoch: tf.Variable<tf.Rank.R1>;
  private readonly stopEpoch: tf.Variable<tf.Rank.R1>;
  private readonly waiting: tf.Variable<tf.Rank.R1>;
  private readonly counting: tf.Variable<tf.Rank.R1>;
  private readonly failed: tf.Variable<tf.Rank.R1>;
  private readonly tracked: readonly tf.Variable[];
  private readonly bestWeights: readonly tf.Variable[];
  /** Patience and epoch limits as `(replicas)` tensors, for the fused kernel; made on first use. */
  private perReplicaSettings: { patience: tf.Tensor1D; epochLimit: tf.Tensor1D } | undefined;
  /** The replicas `[start, end)` each tracked weight holds. */
  private readonly rows: readonly (readonly [number, number])[];
  /** The patience of every replica, or each replica's `(replicas)` when they differ. */
  private readonly patience: number | tf.Tensor1D;
  /** Each replica's epochs `(replicas)`, when given. */
  private readonly epochLimits: tf.Tensor1D | undefined;

  /**
   * @param settings - patience, thresholds, number of replicas
   * @param weights - the model's weights to snapshot, each with replicas on the first axis
   * @param weightRows - the replicas `[start, end)` each weight holds, when not every weight
   *   holds all (a network group's weights hold its own replicas)
   */
  constructor(
    settings: StoppingSettings,
    weights: readonly tf.Variable[],
    weightRows?: readonly (readonly [number, number])[],
  ) {
    const { replicas, patience, epochs } = settings;
    positiveInteger(replicas, 'replicas');
    const patiences = typeof patience === 'number' ? [patience] : patience;
    patiences.forEach((value, r) => {
      if (!(value >= 0)) {
        throw new InvalidArgumentError({
          argument: typeof patience === 'number' ? 'patience' : `patience[${r}]`,
          problem: `expected a number ≥ 0, got ${value}`,
        });
      }
    });
    for (const [name, list] of [
      ['patience', typeof patience === 'number' ? undefined : patience],
      ['epochs', epochs],
    ] as const) {
      if (list !== undefined && list.length !== replicas) {
        throw new InvalidArgumentError({
          argument: name,
          problem: `expected one per replica (${replicas}), got ${list.length}`,
        });
      }
    }
    if (weightRows !== undefined && weightRows.length !== weights.length) {
      throw new InvalidArgumentError({
        argument: 'weightRows',
        problem: `expected the rows of each of the ${weights.length} weights, got ${weightRows.length}`,
      });
    }
    weights.forEach((weight, i) => {
      const [start, end] = weightRows?.[i] ?? [0, replicas];
      if (weight.shape[0] !== end - start || start < 0 || end > replicas) {
        throw new InvalidArgumentError({
          argument: 'weights',
          problem: `${weight.name} has shape [${weight.shape.join(', ')}], expected its replicas [${start}, ${end}) of ${replicas} first`,
        });
      }
    });
    this.rows = weights.map((_, i) => weightRows?.[i] ?? [0, replicas]);
    this.settings = settings;
    const filled = (value: number) =>
      tf.tidy(() => tf.variable(tf.fill<tf.Rank.R1>([replicas], value), false));
    this.bestValidation = filled(Number.POSITIVE_INFINITY);
    this.bestEpoch = filled(-1);
    this.stopEpoch = filled(-1);
    this.waiting = filled(0);
    this.counting = filled(0);
    this.failed = filled(0);
    this.tracked = weights;
    // Inside tidy: the tensors a variable is made from are freed, the variables are kept.
    this.bestWeights = tf.tidy(() => weights.map((weight) => tf.variable(weight.clone(), false)));
    this.patience =
      typeof patience === 'number' || patience.every((value) => value === patience[0])
        ? (patiences[0] ?? 0)
        : tf.tensor1d([...patience]);
    this.epochLimits = epochs === undefined ? undefined : tf.tensor1d([...epochs]);
  }

  /**
   * Takes one step's losses into account: call it before the optimiser's update, with the
   * losses of that step's forward pass, so the weights it snapshots are the ones those losses
   * belong to. Runs entirely on the device.
   *
   * @param epoch - the epoch (step) number, 0-based
   */
  update(epoch: number, losses: StepLosses): void {
    if (hasStoppingKernels()) {
      this.fusedUpdate(epoch, losses);
      return;
    }
    const { thresholdChi2, positivityThreshold, delta = 0 } = this.settings;
    tf.tidy(() => {
      const stoppedBefore = tf.greaterEqual(this.stopEpoch, 0);
      // a replica past its own epochs is frozen as a stopped one: nothing of it changes
      const ended =
        this.epochLimits === undefined ? undefined : tf.lessEqual(this.epochLimits, epoch);
      const stopped = ended === undefined ? stoppedBefore : tf.logicalOr(stoppedBefore, ended);
      const diverged = tf.logicalAnd(
        tf.logicalNot(tf.logicalAnd(tf.isFinite(losses.training), tf.isFinite(losses.validation))),
        tf.logicalNot(stopped),
      );
      const improves = tf.logicalAnd(
        tf.logicalOr(
          tf.greater(this.counting, 0),
          tf.less(losses.validationChi2PerPoint, thresholdChi2),
        ),
        tf.logicalAnd(
          tf.less(losses.validation, tf.sub(this.bestValidation, delta)),
          tf.less(losses.positivity, positivityThreshold),
        ),
      );
      const best = tf.logicalAnd(improves, tf.logicalNot(tf.logicalOr(stopped, diverged)));
      const counted = selectSameShape(
        best,
        tf.zerosLike(this.waiting),
        tf.add(this.waiting, this.counting),
      );
      const waiting = ended === undefined ? counted : selectSameShape(ended, this.waiting, counted);
      const outOfPatience = tf.logicalAnd(
        tf.greater(waiting, this.patience),
        tf.logicalNot(stopped),
      );
      this.bestValidation.assign(selectSameShape(best, losses.validation, this.bestValidation));
      this.bestEpoch.assign(
        selectSameShape(best, tf.fill([this.settings.replicas], epoch), this.bestEpoch),
      );
      this.counting.assign(selectSameShape(best, tf.onesLike(this.counting), this.counting));
      this.waiting.assign(waiting);
      this.stopEpoch.assign(
        selectSameShape(
          tf.logicalOr(diverged, outOfPatience),
          tf.fill([this.settings.replicas], epoch),
          this.stopEpoch,
        ),
      );
      this.failed.assign(selectSameShape(diverged, tf.onesLike(this.failed), this.failed));
      const bestColumn = tf.reshape(tf.cast(best, 'float32'), [this.settings.replicas, 1]);
      const masks = this.weightMasks(bestColumn);
      this.tracked.forEach((weight, i) => {
        this.bestWeights[i].assign(selectSameShape(masks(i), weight, this.bestWeights[i]));
      });
    });
  }

  /**
   * {@link ReplicaStopping.update} in two kernels where the backend registers them (the native
   * addon does): the state's update, and the snapshot of every tracked weight's best rows.
   */
  private fusedUpdate(epoch: number, losses: StepLosses): void {
    const { thresholdChi2, positivityThreshold, delta = 0 } = this.settings;
    // kept: the first update may run inside a step's tidy, and these live as long as the stopping
    const { patience, epochLimit } = (this.perReplicaSettings ??= tf.tidy(() => {
      const { replicas } = this.settings;
      return {
        patience: tf.keep(
          typeof this.patience === 'number'
            ? tf.fill<tf.Rank.R1>([replicas], this.patience)
            : tf.clone(this.patience),
        ),
        epochLimit: tf.keep(
          this.epochLimits === undefined
            ? tf.fill<tf.Rank.R1>([replicas], Number.POSITIVE_INFINITY)
            : tf.clone(this.epochLimits),
        ),
      };
    }));
    tf.tidy(() => {
      const outputs = runStoppingUpdate(
        {
          training: losses.training,
          validation: losses.validation,
          validationChi2PerPoint: losses.validationChi2PerPoint,
          positivity: losses.positivity,
          bestValidation: this.bestValidation,
          bestEpoch: this.bestEpoch,
          stopEpoch: this.stopEpoch,
          waiting: this.waiting,
          counting: this.counting,
          failed: this.failed,
          patience,
          epochLimit,
        },
        { epoch, thresholdChi2, positivityThreshold, delta },
      );
      STOPPING_STATE_KEYS.forEach((key, k) => {
        this[key].assign(outputs[k]);
      });
      const best = outputs[STOPPING_STATE_KEYS.length];
      const snapshots = runKeepBestRows(
        best,
        this.tracked.map((weight, i) => ({
          weight,
          bestWeight: this.bestWeights[i],
          start: this.rows[i]?.[0] ?? 0,
        })),
      );
      snapshots.forEach((snapshot, i) => {
        this.bestWeights[i].assign(snapshot);
      });
    });
  }

  /**
   * The `(replicas, 1)` column spread over each tracked weight's rows and shape, as bool: one
   * mask per distinct rows and shape (a model has many `(replicas, 1)` exponents).
   */
  private weightMasks(column: tf.Tensor): (i: number) => tf.Tensor {
    const masks = new Map<string, tf.Tensor>();
    return (i) => {
      const weight = this.tracked[i];
      const [start, end] = this.rows[i] ?? [0, this.settings.replicas];
      const key = `${start},${end}:${weight.shape.join(',')}`;
      const cached = masks.get(key);
      if (cached !== undefined) return cached;
      const rows =
        start === 0 && end === this.settings.replicas
          ? column
          : tf.slice(column, [start, 0], [end - start, 1]);
      const mask = spreadReplicaMask(rows, weight.shape);
      masks.set(key, mask);
      return mask;
    };
  }

  /**
   * (replicas) 1 for replicas whose weights should still be updated: not failed and, with
   * per-replica epochs, not past their own epochs at `epoch`.
   *
   * @param epoch - the step's epoch, 0-based (needed only with per-replica epochs)
   */
  activeReplicas(epoch = 0): tf.Tensor1D {
    return tf.tidy(() => {
      const running = tf.sub<tf.Tensor1D>(1, this.failed);
      if (this.epochLimits === undefined) return running;
      return tf.mul(running, tf.cast(tf.greater(this.epochLimits, epoch), 'float32'));
    });
  }

  /** Reads the state back (a host sync: call it every `log_every` steps, not every step). */
  async snapshot(): Promise<StoppingSnapshot> {
    const [bestValidation, bestEpoch, stopEpoch, failed] = await Promise.all([
      this.bestValidation.data(),
      this.bestEpoch.data(),
      this.stopEpoch.data(),
      this.failed.data(),
    ]);
    return {
      bestValidation: Float32Array.from(bestValidation),
      bestEpoch: Int32Array.from(bestEpoch),
      stopEpoch: Int32Array.from(stopEpoch),
      failed: Uint8Array.from(failed),
    };
  }

  /** Whether every replica has stopped (from a snapshot). */
  static allStopped(snapshot: StoppingSnapshot): boolean {
    return snapshot.stopEpoch.every((epoch) => epoch >= 0);
  }

  /** Copies each replica's best weights back into the model (replicas without a best keep theirs). */
  restoreBestWeights(): void {
    tf.tidy(() => {
      const hasBest = tf.cast(tf.greaterEqual(this.bestEpoch, 0), 'float32');
      const masks = this.weightMasks(tf.reshape(hasBest, [this.settings.replicas, 1]));
      this.tracked.forEach((weight, i) => {
        weight.assign(tf.where(masks(i), this.bestWeights[i], weight));
      });
    });
  }

  /**
   * A copy of the whole state, for a checkpoint: cheap clones (shared data) that the caller
   * disposes. No value is read back.
   */
  state(): ReplicaStoppingState {
    return {
      bestValidation: tf.clone(this.bestValidation),
      bestEpoch: tf.clone(this.bestEpoch),
      stopEpoch: tf.clone(this.stopEpoch),
      waiting: tf.clone(this.waiting),
      counting: tf.clone(this.counting),
      failed: tf.clone(this.failed),
      bestWeights: this.bestWeights.map((weight) => tf.clone(weight)),
    };
  }

  /**
   * Continues from a state taken with {@link ReplicaStopping.state} (the tensors are copied; the
   * caller keeps ownership of `state`). Everything is checked before anything is assigned.
   *
   * @throws InvalidArgumentError for a disposed or non-float32 tensor or a wrong number of best
   *   weights; ShapeError for a tensor that does not fit this stopping's replicas or weights
   */
  restore(state: ReplicaStoppingState): void {
    const { replicas } = this.settings;
    const check = (tensor: tf.Tensor, quantity: string, expected: readonly number[]) => {
      if (tensor.isDisposed || tensor.dtype !== 'float32') {
        throw new InvalidArgumentError({
          argument: quantity,
          problem: tensor.isDisposed
            ? 'the tensor has been disposed'
            : `expected a float32 tensor, got ${tensor.dtype}`,
        });
      }
      if (!tf.util.arraysEqual(tensor.shape, [...expected])) {
        throw new ShapeError({ quantity, expected, actual: tensor.shape });
      }
    };
    for (const key of STOPPING_STATE_KEYS) check(state[key], `state.${key}`, [replicas]);
    if (state.bestWeights.length !== this.tracked.length) {
      throw new InvalidArgumentError({
        argument: 'state.bestWeights',
        problem: `expected one tensor per tracked weight (${this.tracked.length}), got ${state.bestWeights.length}`,
      });
    }
    state.bestWeights.forEach((weight, i) => {
      check(weight, `state.bestWeights[${i}] (${this.tracked[i].name})`, this.tracked[i].shape);
    });
    for (const key of STOPPING_STATE_KEYS) this[key].assign(state[key]);
    this.bestWeights.forEach((weight, i) => {
      weight.assign(state.bestWeights[i]);
    });
  }

  /** Frees the state's tensors. */
  dispose(): void {
    for (const variable of [
      this.bestValidation,
      this.bestEpoch,
      this.stopEpoch,
      this.waiting,
      this.counting,
      this.failed,
      ...this.bestWeights,
    ]) {
      variable.dispose();
    }
    if (typeof this.patience !== 'number') this.patience.dispose();
    this.epochLimits?.dispose();
    if (this.perReplicaSettings !== undefined) {
      tf.dispose([this.perReplicaSettings.patience, this.perReplicaSettings.epochLimit]);
    }
  }
}
