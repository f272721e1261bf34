import * as tf from '@tensorflow/tfjs-core';
import { positiveInteger } from '@partonfit/core';
import { LAGRANGE_UPDATE_EVERY } from '../lagrange/lagrange-schedule.js';
import type { StepLosses, StoppingSnapshot } from '../stopping/replica-stopping.js';
import type { FitLosses } from './fit-objective.js';
import type { TrainingParts } from './training-state.js';

/** The per-replica losses of a step, `(replicas)` each, kept until {@link disposeStepLosses}. */
export type TrainingStepLosses = Omit<FitLosses, 'total'>;

/** Frees the kept losses of a step. */
export function disposeStepLosses(losses: TrainingStepLosses): void {
  tf.dispose([
    losses.training,
    losses.trainingChi2,
    losses.validation,
    losses.validationChi2PerPoint,
    losses.positivity,
  ]);
}

/** Options of {@link trainingStep}: what a variant of the step does differently. */
export interface TrainingStepOptions {
  /**
   * The forward pass and the losses read off it, run on the gradient tape (default:
   * `objective.losses(model.forward())`).
   */
  readonly forward?: () => FitLosses;
  /** The losses the stopping sees (default: those of the forward pass). */
  readonly stoppingLosses?: (losses: TrainingStepLosses) => StepLosses;
}

/**
 * One training step of every replica at once, all on the device: the forward pass and its
 * losses, the gradient of the summed training loss (replicas share no weight, so each replica's
 * gradient is its own), the stopping update with this step's losses (taken before the update, so
 * a best-weights snapshot holds the weights the losses belong to), the per-replica optimiser
 * update of the replicas still training, and the preprocessing exponents clipped into their
 * ranges. No value is read back to the host.
 *
 * Call it inside `tf.tidy`; the returned losses outlive the tidy scope's own tensors and are
 * freed by the caller with {@link disposeStepLosses}.
 *
 * @param parts - the fit's model, objective, optimiser and stopping
 * @param epoch - the step's epoch, 0-based, recorded by the stopping
 * @returns the step's losses, `(replicas)` each
 */
export function trainingStep(
  parts: TrainingParts,
  epoch: number,
  options: TrainingStepOptions = {},
): TrainingStepLosses {
  const { model, objective, optimizer, stopping } = parts;
  const forward = options.forward ?? (() => objective.losses(model.forward()));
  const variables = model.trainableVariables();
  let kept: TrainingStepLosses | undefined;
  const { grads } = tf.variableGrads(() => {
    const losses = forward();
    kept = {
      training: tf.keep(losses.training),
      trainingChi2: tf.keep(losses.trainingChi2),
      validation: tf.keep(losses.validation),
      validationChi2PerPoint: tf.keep(losses.validationChi2PerPoint),
      positivity: tf.keep(losses.positivity),
    };
    return losses.total;
  }, variables);
  const losses = kept as TrainingStepLosses;
  try {
    stopping.update(epoch, options.stoppingLosses?.(losses) ?? losses);
    optimizer.applyGradients(
      variables,
      variables.map((variable) => grads[variable.name]),
      { active: stopping.activeReplicas(epoch) },
    );
    model.clipPreprocessing();
  } catch (error) {
    disposeStepLosses(losses);
    throw error;
  }
  return losses;
}

/** What {@link TrainingSteps.readBack} brings back to the host. */
export interface TrainingReadBack {
  /** The stopping state. */
  readonly stopping: StoppingSnapshot;
  /**
   * Training χ² per training point of each replica at the last logged step, `(replicas)`
   * (empty before the first logged step).
   */
  readonly trainingChi2PerPoint: Float32Array;
  /** Validation χ² per validation point of each replica at the last logged step, `(replicas)`. */
  readonly validationChi2PerPoint: Float32Array;
}

/** Options of {@link TrainingSteps}. */
export interface TrainingStepsOptions {
  /** Steps between two read-backs (default 100, the runcard's `log_every`). */
  readonly logEvery?: number;
  /** The last epoch of the fit: its step is logged too, whether or not `logEvery` divides it. */
  readonly epochs?: number;
  /**
   * Each replica's epochs, when they may differ: the step of each replica's last epoch is
   * logged too, as that replica's own fit would log it.
   */
  readonly replicaEpochs?: readonly number[];
}

/**
 * The training loop's body, step after step, as `trainReplicas` runs it and the benchmark
 * times it: {@link trainingStep} under `tf.tidy`, the χ²/n of each replica kept on the device
 * at the steps that end a logging interval, and the Lagrange multipliers grown every
 * {@link LAGRANGE_UPDATE_EVERY} epochs. Nothing is read back between read-backs.
 */
export class TrainingSteps {
  /** Steps between two read-backs. */
  readonly logEvery: number;
  private readonly parts: TrainingParts;
  private readonly lastEpochs: ReadonlySet<number>;
  /** Each replica's number of training points (at least 1), `(replicas)`. */
  private readonly trainingCounts: tf.Tensor1D;
  /** `[training χ²/n, validation χ²/n]` of the last logged step, `(2, replicas)`. */
  private logged: tf.Tensor2D | undefined;

  /**
   * @param parts - the fit's model, objective, optimiser and stopping
   * @param trainingCounts - each replica's number of training points, `(replicas)`
   * @throws InvalidArgumentError for a `logEvery` that is not a positive integer
   */
  constructor(
    parts: TrainingParts,
    trainingCounts: Int32Array,
    options: TrainingStepsOptions = {},
  ) {
    this.parts = parts;
    this.logEvery = positiveInteger(options.logEvery ?? 100, 'logEvery');
    this.lastEpochs = new Set([
      ...(options.epochs === undefined ? [] : [options.epochs]),
      ...(options.replicaEpochs ?? []),
    ]);
    this.trainingCounts = tf.tensor1d(Array.from(trainingCounts, (count) => Math.max(count, 1)));
  }

  /** Whether the step of `epoch` (0-based) ends a logging interval, the fit or a replica's fit. */
  endsInterval(epoch: number): boolean {
    return (epoch + 1) % this.logEvery === 0 || this.lastEpochs.has(epoch + 1);
  }

  /** Runs the training step of `epoch` (0-based) for every replica. */
  step(epoch: number, options: TrainingStepOptions = {}): void {
    tf.tidy(() => {
      const losses = trainingStep(this.parts, epoch, options);
      try {
        if (this.endsInterval(epoch)) {
          this.logged?.dispose();
          this.logged = tf.keep(
            tf.stack([
              tf.div(losses.trainingChi2, this.trainingCounts),
              losses.validationChi2PerPoint,
            ]),
          ) as tf.Tensor2D;
        }
      } finally {
        disposeStepLosses(losses);
      }
    });
    if ((epoch + 1) % LAGRANGE_UPDATE_EVERY === 0) this.parts.objective.updateMultipliers();
  }

  /** Reads the stopping state and the last logged χ²/n back to the host (a sync). */
  async readBack(): Promise<TrainingReadBack> {
    const stopping = await this.parts.stopping.snapshot();
    const replicas = stopping.stopEpoch.length;
    const values = this.logged === undefined ? new Float32Array(0) : await this.logged.data();
    return {
      stopping,
      trainingChi2PerPoint: Float32Array.from(values.subarray(0, replicas)),
      validationChi2PerPoint: Float32Array.from(values.subarray(replicas, 2 * replicas)),
    };
  }

  /** Frees the tensors this loop made (not the parts it was given). */
  dispose(): void {
    this.logged?.dispose();
    this.trainingCounts.dispose();
  }
}
