import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@partonfit/core';
import { clipByReplicaNorm } from './clip-by-norm.js';
import {
  resolveOptimizerSettings,
  type ReplicaOptimizerSettings,
  type ResolvedOptimizerSettings,
} from './optimizer-settings.js';
import { checkRestoredState, type ReplicaOptimizerState } from './optimizer-state.js';
import { checkUpdateInputs } from './update-inputs.js';
import type { UpdateRule } from './update-rule.js';
import { updateRuleFor } from './update-rules.js';
import { selectSameShape, spreadReplicaMask } from '../replica-mask/replica-mask.js';

/** Options of {@link ReplicaOptimizer.applyGradients}. */
export interface ApplyGradientsOptions {
  /**
   * `(replicas)`, bool or 0/1: replicas marked 0/false keep their weights and their optimiser
   * statistics exactly as they were, whatever their gradients (NaN included); omitted means all
   * replicas are updated. The step count still advances for all, so a replica reactivated
   * later sees the shared step in its bias corrections (not what a paused independent run
   * would see).
   *
   * Not needed to contain a diverged replica: every operation is per replica slice, so NaN
   * gradients in one replica never reach another's weights (tested). It serves to keep a
   * replica's last finite state, or to freeze replicas on purpose.
   */
  readonly active?: tf.Tensor;
}

/**
 * An optimiser for variables that hold many independent replicas of one model, each with the
 * replica axis first, `(replicas, …)`. Every replica is updated exactly as if it were its own
 * single-replica model under the Keras 3 optimiser of the same name: gradient clipping per
 * replica and variable, statistics per element, one shared step count (all replicas take the
 * same number of steps).
 */
export interface ReplicaOptimizer {
  /** The settings in use, defaults filled in. */
  readonly settings: ResolvedOptimizerSettings;
  /** The number of updates applied so far (Keras's `iterations`). */
  readonly step: number;
  /** Keras's names of the statistics kept for every variable, in the order of the state. */
  readonly slotNames: readonly string[];
  /**
   * Updates `variables` in place from `gradients`: clipping, statistics and weights, all in
   * one `tf.tidy`, with no value read back from the device (only shapes are checked). The
   * first call fixes the variables' shapes; later calls must pass the same variables in the
   * same order.
   *
   * @param variables - each `(replicas, …)`, float32, the same number of replicas in all
   * @param gradients - d loss / d variable, one per variable in the same order, each of its
   *   variable's shape (e.g. `grads[variable.name]` from `tf.variableGrads`)
   * @param options - an optional per-replica `active` mask
   * @throws InvalidArgumentError for an empty list, mismatched counts, a disposed or
   *   non-float32 tensor, or a disposed optimiser; ShapeError for a gradient that does not
   *   have its variable's shape, variables with different numbers of replicas, variables
   *   shaped unlike the first call's, or an `active` mask that is not `(replicas)`.
   */
  applyGradients(
    variables: readonly tf.Variable[],
    gradients: readonly tf.Tensor[],
    options?: ApplyGradientsOptions,
  ): void;
  /**
   * The step count and a copy of every statistic, for a checkpoint. The tensors are cheap
   * clones (shared data); the caller disposes them.
   */
  state(): ReplicaOptimizerState;
  /**
   * Continues from a checkpoint taken with {@link ReplicaOptimizer.state}. The tensors are
   * copied; the caller keeps ownership of `state`.
   *
   * @throws InvalidArgumentError for another optimiser's state, a bad step count or wrong slot
   *   names; ShapeError for statistics that do not fit the variables.
   */
  restore(state: ReplicaOptimizerState): void;
  /** Frees the statistics. The optimiser cannot be used afterwards. */
  dispose(): void;
}

class MultiReplicaOptimizer implements ReplicaOptimizer {
  readonly settings: ResolvedOptimizerSettings;
  readonly slotNames: readonly string[];
  private readonly rule: UpdateRule;
  private stepCount = 0;
  /** The statistics, `[variable][slot]`, each of its variable's shape; set on first use. */
  private slots: tf.Variable[][] | undefined;
  private shapes: (readonly number[])[] | undefined;
  private disposed = false;

  constructor(settings: ResolvedOptimizerSettings) {
    this.settings = settings;
    this.rule = updateRuleFor(settings);
    this.slotNames = this.rule.slots.map((slot) => slot.name);
  }

  get step(): number {
    return this.stepCount;
  }

  applyGradients(
    variables: readonly tf.Variable[],
    gradients: readonly tf.Tensor[],
    options: ApplyGradientsOptions = {},
  ): void {
    this.checkUsable();
    const { active } = options;
    const replicas = checkUpdateInputs(variables, gradients, active, this.shapes);
    const slots = this.slots ?? this.build(variables.map((variable) => variable.shape));
    const step = this.stepCount + 1;
    const { clipnorm } = this.settings;
    tf.tidy(() => {
      const update = this.rule.forStep(step);
      const clipTo = clipnorm === undefined ? undefined : tf.scalar(clipnorm);
      const activeColumn =
        active === undefined ? undefined : tf.reshape(tf.cast(active, 'float32'), [replicas, 1]);
      variables.forEach((variable, index) => {
        const variableSlots = slots[index];
        const rawGradient = gradients[index];
        const gradient =
          clipTo === undefined ? rawGradient : clipByReplicaNorm(rawGradient, clipTo);
        const updated = update(variable, gradient, variableSlots);
        const replicaMask =
          activeColumn === undefined ? undefined : spreadReplicaMask(activeColumn, variable.shape);
        const select = (next: tf.Tensor, previous: tf.Tensor): tf.Tensor =>
          replicaMask === undefined ? next : selectSameShape(replicaMask, next, previous);
        const newValues = updated.slots.map((slot, slotIndex) =>
          select(slot, variableSlots[slotIndex]),
        );
        variable.assign(select(updated.variable, variable));
        variableSlots.forEach((slot, slotIndex) => {
          slot.assign(newValues[slotIndex]);
        });
      });
    });
    this.stepCount = step;
  }

  state(): ReplicaOptimizerState {
    this.checkUsable();
    return {
      optimizer: this.settings.name,
      step: this.stepCount,
      slots: Object.fromEntries(
        this.slotNames.map((name, slotIndex) => [
          name,
          (this.slots ?? []).map((variableSlots) => tf.clone(variableSlots[slotIndex])),
        ]),
      ),
    };
  }

  restore(state: ReplicaOptimizerState): void {
    this.checkUsable();
    const shapes = checkRestoredState(state, this.settings.name, this.slotNames, this.shapes);
    if (shapes !== undefined) {
      const slots = this.slots ?? this.build(shapes);
      slots.forEach((variableSlots, index) => {
        variableSlots.forEach((slot, slotIndex) => {
          slot.assign(state.slots[this.slotNames[slotIndex]][index]);
        });
      });
    }
    this.stepCount = state.step;
  }

  dispose(): void {
    if (this.disposed) return;
    for (const variableSlots of this.slots ?? []) tf.dispose(variableSlots);
    this.slots = undefined;
    this.disposed = true;
  }

  private build(shapes: readonly (readonly number[])[]): tf.Variable[][] {
    this.shapes = shapes.map((shape) => [...shape]);
    const slots = shapes.map((shape) =>
      this.rule.slots.map((slot) =>
        tf.tidy(() => tf.variable(tf.fill([...shape], slot.initialValue), false)),
      ),
    );
    this.slots = slots;
    return slots;
  }

  private checkUsable(): void {
    if (this.disposed) {
      throw new InvalidArgumentError({
        argument: 'optimizer',
        problem: `this ${this.settings.name} optimiser has been disposed`,
      });
    }
  }
}

/**
 * Creates a multi-replica optimiser: Keras 3's SGD, RMSprop, Adam, Adamax, Adagrad, Adadelta,
 * Nadam or Amsgrad (Adam with `amsgrad`), with Keras's hyperparameter defaults and n3fit's
 * default learning rates, written as plain tensor updates so that every replica keeps its own
 * clipping and statistics.
 *
 * @example
 * ```ts
 * import * as tf from '@tensorflow/tfjs-core';
 * import { createReplicaOptimizer } from '@partonfit/trainer';
 *
 * // A MultiDense-shaped kernel of 3 replicas, (replicas, in, out), replica r filled with r + 1.
 * const kernel = tf.variable(tf.mul(tf.ones([3, 2, 4]), tf.reshape(tf.range(1, 4), [3, 1, 1])));
 * const variables = [kernel];
 * const totalLoss = () => tf.sum<tf.Scalar>(tf.square(kernel)); // Σ over replicas of each replica's loss
 * const optimizer = createReplicaOptimizer({ name: 'Nadam', learningRate: 2.621e-3, clipnorm: 6.073e-6 });
 * const { grads } = tf.variableGrads(totalLoss, variables);
 * optimizer.applyGradients(variables, variables.map((variable) => grads[variable.name]));
 * // clipnorm is applied per replica: every replica moves by the same small step
 * console.log(await kernel.data());
 * ```
 *
 * @throws InvalidArgumentError for bad settings (see {@link resolveOptimizerSettings}).
 */
export function createReplicaOptimizer(settings: ReplicaOptimizerSettings): ReplicaOptimizer {
  return new MultiReplicaOptimizer(resolveOptimizerSettings(settings));
}
