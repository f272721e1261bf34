import * as tf from '@tensorflow/tfjs-core';
import { hasAdamFamilyUpdateKernel, runAdamFamilyUpdate } from '@partonfit/backend';
import { InvalidArgumentError } from '@partonfit/core';
import { clipByReplicaNorm } from './clip-by-norm.js';
import {
  resolveOptimizerSettings,
  type ReplicaOptimizerSettings,
  type ResolvedOptimizerSettings,
} from './optimizer-settings.js';
import { checkRestoredState, type ReplicaOptimizerState } from './optimizer-state.js';
import { checkUpdateInputs } from './update-inputs.js';
import { FusedStep } from './fused-step.js';
import { RowFactor, type RowRange, type UpdateRule, type VariableUpdate } from './update-rule.js';
import { optimizerFormula, updateRuleFor } from './update-rules.js';
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
 * The optimisers of replicas with their own settings (see {@link createReplicaOptimizer}): one
 * set of settings per model row, and the rows each variable holds.
 */
export interface ReplicaOptimizerPlan {
  /** Each model row's optimiser, `(replicas)`: name, learning rate, clipnorm. */
  readonly replicas: readonly ReplicaOptimizerSettings[];
  /**
   * The model rows `[start, end)` each variable of `applyGradients` holds, in that order (a
   * network group's weights hold its rows); default: every variable holds every row.
   */
  readonly variableRows?: readonly RowRange[];
}

/**
 * An optimiser for variables that hold many independent replicas of one model, each with the
 * replica axis first, `(replicas, …)`. Every replica is updated exactly as if it were its own
 * single-replica model under the Keras 3 optimiser of the same name: gradient clipping per
 * replica and variable, statistics per element, one shared step count (all replicas take the
 * same number of steps).
 */
export interface ReplicaOptimizer {
  /**
   * The settings in use, defaults filled in: the one optimiser's, or with several kinds the
   * first row's ({@link ReplicaOptimizer.kinds} has them all).
   */
  readonly settings: ResolvedOptimizerSettings;
  /**
   * The optimisers of the replicas, one per kind (a formula: Adam and Nadam rows are one kind),
   * each its first row's settings, in the order their first row appears.
   */
  readonly kinds: readonly ResolvedOptimizerSettings[];
  /**
   * What the state and checkpoints call it: the optimiser's name, or every kind's rows' names
   * joined by `+` (`Nadam+Adam`).
   */
  readonly name: string;
  /** The number of updates applied so far (Keras's `iterations`). */
  readonly step: number;
  /**
   * The names of the statistics kept for every variable, in the order of the state: Keras's
   * names, prefixed by the kind (`Adam_velocity`) when there are several kinds.
   */
  readonly slotNames: readonly string[];
  /**
   * The statistics of the state that hold model row `row`'s values — its kind's, in the order of
   * that kind's statistics (some of {@link ReplicaOptimizer.slotNames}).
   */
  rowSlotNames(row: number): readonly string[];
  /**
   * Updates `variables` in place from `gradients`: clipping, statistics and weights, all in
   * one `tf.tidy`, with no value read back from the device (only shapes are checked). The
   * first call fixes the variables' shapes; later calls must pass the same variables in the
   * same order.
   *
   * @param variables - each `(rows, …)`, float32: every row of the model, or the rows the plan's
   *   `variableRows` gives it
   * @param gradients - d loss / d variable, one per variable in the same order, each of its
   *   variable's shape (e.g. `grads[variable.name]` from `tf.variableGrads`)
   * @param options - an optional per-replica `active` mask, `(replicas)` of the whole model
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

/** The replicas that share one optimiser's formula: its rule and each row's factors. */
interface OptimizerKind {
  /** The settings of its first row. */
  readonly settings: ResolvedOptimizerSettings;
  /** Its rows' optimisers by name, joined by `+` (`Nadam+Adam`). */
  readonly label: string;
  readonly rule: UpdateRule;
  /** The model rows of this kind, `(replicas)`: true where a row belongs to it; undefined: all. */
  readonly rows: readonly boolean[] | undefined;
  /** Each model row's clipnorm (rows of other kinds repeat one of the kind's). */
  readonly clipnorms: readonly number[] | undefined;
}

/**
 * The settings that need a formula of their own: the optimiser's formula (Adam and Nadam share
 * one), its options, and whether it clips (a learning rate or clipnorm does not).
 */
function kindKey(settings: ResolvedOptimizerSettings): string {
  const { name, momentum, nesterov, centered, clipnorm } = settings;
  return [optimizerFormula(name), momentum, nesterov, centered, clipnorm === undefined].join('|');
}

/**
 * The kinds of optimiser among the rows, in the order their first row appears; one settings
 * for all rows gives one kind of every row.
 */
function optimizerKinds(rows: readonly ResolvedOptimizerSettings[]): OptimizerKind[] {
  if (rows.length === 1) {
    const [only] = rows as [ResolvedOptimizerSettings];
    const clipnorms = only.clipnorm === undefined ? undefined : [only.clipnorm];
    return [
      { settings: only, label: only.name, rule: updateRuleFor([only]), rows: undefined, clipnorms },
    ];
  }
  const keys = rows.map(kindKey);
  const distinct = [...new Set(keys)];
  return distinct.map((key) => {
    const members = keys.map((other) => other === key);
    const first = rows[keys.indexOf(key)];
    const own = rows.map((row, index) => (members[index] ? row : first));
    const clipnorms =
      first.clipnorm === undefined ? undefined : own.map((row) => row.clipnorm ?? 0);
    const names = [...new Set(rows.filter((_, index) => members[index]).map((row) => row.name))];
    return {
      settings: first,
      label: names.join('+'),
      rule: updateRuleFor(own),
      rows: members,
      clipnorms,
    };
  });
}

/** The slot names of the state: Keras's, prefixed by the kind when there are several. */
function stateSlotNames(
  kinds: readonly OptimizerKind[],
): { kind: number; slot: number; name: string }[] {
  const labels = kinds.map((kind, k) => {
    const repeated = kinds.filter((other) => other.label === kind.label).length > 1;
    return repeated ? `${kind.label}#${k}` : kind.label;
  });
  return kinds.flatMap((kind, k) =>
    kind.rule.slots.map((slot, index) => ({
      kind: k,
      slot: index,
      name: kinds.length === 1 ? slot.name : `${labels[k]}_${slot.name}`,
    })),
  );
}

class MultiReplicaOptimizer implements ReplicaOptimizer {
  readonly settings: ResolvedOptimizerSettings;
  readonly kinds: readonly ResolvedOptimizerSettings[];
  readonly name: string;
  readonly slotNames: readonly string[];
  private readonly optimizerKinds: readonly OptimizerKind[];
  private readonly stateSlots: readonly { kind: number; slot: number; name: string }[];
  private readonly replicaCount: number | undefined;
  private readonly variableRows: readonly RowRange[] | undefined;
  private stepCount = 0;
  /** The statistics, `[kind][variable][slot]`, each of its variable's shape; set on first use. */
  private slots: tf.Variable[][][] | undefined;
  private shapes: (readonly number[])[] | undefined;
  private disposed = false;

  constructor(
    rows: readonly ResolvedOptimizerSettings[],
    variableRows: readonly RowRange[] | undefined,
    replicas: number | undefined,
  ) {
    this.optimizerKinds = optimizerKinds(rows);
    this.kinds = this.optimizerKinds.map((kind) => kind.settings);
    this.settings = this.kinds[0];
    this.name = this.optimizerKinds.map((kind) => kind.label).join('+');
    this.stateSlots = stateSlotNames(this.optimizerKinds);
    this.slotNames = this.stateSlots.map((slot) => slot.name);
    this.replicaCount = replicas;
    this.variableRows = variableRows;
  }

  rowSlotNames(row: number): readonly string[] {
    const kind = this.optimizerKinds.findIndex((each) => each.rows?.[row] ?? true);
    return this.stateSlots.filter((slot) => slot.kind === kind).map((slot) => slot.name);
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
    const rowsOf = this.checkRows(variables);
    const replicas = checkUpdateInputs(
      variables,
      gradients,
      active,
      this.shapes,
      this.variableRows === undefined
        ? undefined
        : { replicas: this.replicaCount ?? 0, of: rowsOf },
    );
    const slots = this.slots ?? this.build(variables.map((variable) => variable.shape));
    const step = this.stepCount + 1;
    const fusedKernel = hasAdamFamilyUpdateKernel();
    tf.tidy(() => {
      const kinds = this.optimizerKinds.map((kind) => {
        const fused = fusedKernel ? kind.rule.fused : undefined;
        return {
          kind,
          fused: fused === undefined ? undefined : new FusedStep(fused, step, kind.clipnorms),
          update: fused === undefined ? kind.rule.forStep(step) : undefined,
          clipTo: kind.clipnorms === undefined ? undefined : new RowFactor(kind.clipnorms),
        };
      });
      const activeRow =
        active === undefined ? undefined : tf.reshape(tf.cast(active, 'float32'), [replicas]);
      const single = kinds.length === 1;
      variables.forEach((variable, index) => {
        const rows = rowsOf(index);
        const rawGradient = gradients[index];
        const rowCount = rows[1] - rows[0];
        let value: tf.Tensor = variable;
        kinds.forEach(({ kind, fused, update, clipTo }, k) => {
          if (kind.rows !== undefined && !kind.rows.slice(rows[0], rows[1]).some(Boolean)) return;
          const variableSlots = slots[k]?.[index] ?? [];
          if (fused !== undefined) {
            const [momentum, velocity] = variableSlots as [tf.Variable, tf.Variable];
            const [weights, newMomentum, newVelocity] = runAdamFamilyUpdate(
              {
                variable: value,
                gradient: rawGradient,
                momentum,
                velocity,
                factors: fused.factors(rows),
                update: fused.updated(
                  rows,
                  () => this.updatedRows(kind, single, activeRow, rows) ?? tf.ones([rowCount]),
                ),
              },
              fused.constants,
            );
            momentum.assign(newMomentum);
            velocity.assign(newVelocity);
            value = weights;
            return;
          }
          const gradient =
            clipTo === undefined
              ? rawGradient
              : clipByReplicaNorm(rawGradient, clipTo.of(rows, [rowCount, 1]));
          const updated = (update as VariableUpdate)(variable, gradient, variableSlots, rows);
          const mask = this.rowMask(kind, single, activeRow, rows, variable.shape);
          const select = (next: tf.Tensor, previous: tf.Tensor): tf.Tensor =>
            mask === undefined ? next : selectSameShape(mask, next, previous);
          const newSlots = updated.slots.map((slot, slotIndex) =>
            select(slot, variableSlots[slotIndex] as tf.Tensor),
          );
          value = select(updated.variable, value);
          variableSlots.forEach((slot, slotIndex) => {
            slot.assign(newSlots[slotIndex]);
          });
        });
        variable.assign(value);
      });
    });
    this.stepCount = step;
  }

  state(): ReplicaOptimizerState {
    this.checkUsable();
    return {
      optimizer: this.name,
      step: this.stepCount,
      slots: Object.fromEntries(
        this.stateSlots.map(({ kind, slot, name }) => [
          name,
          (this.slots?.[kind] ?? []).map((variableSlots) =>
            tf.clone(variableSlots[slot] as tf.Tensor),
          ),
        ]),
      ),
    };
  }

  restore(state: ReplicaOptimizerState): void {
    this.checkUsable();
    const shapes = checkRestoredState(state, this.name, this.slotNames, this.shapes);
    if (shapes !== undefined) {
      const slots = this.slots ?? this.build(shapes);
      for (const { kind, slot, name } of this.stateSlots) {
        (slots[kind] ?? []).forEach((variableSlots, index) => {
          variableSlots[slot]?.assign(state.slots[name][index]);
        });
      }
    }
    this.stepCount = state.step;
  }

  dispose(): void {
    if (this.disposed) return;
    for (const kindSlots of this.slots ?? []) tf.dispose(kindSlots.flat());
    this.slots = undefined;
    this.disposed = true;
  }

  /**
   * The bool mask of the rows of `variable` this kind updates, spread over its shape; undefined
   * when that is every row of the variable.
   */
  private rowMask(
    kind: OptimizerKind,
    single: boolean,
    activeRow: tf.Tensor | undefined,
    rows: RowRange,
    shape: readonly number[],
  ): tf.Tensor | undefined {
    const updated = this.updatedRows(kind, single, activeRow, rows);
    return updated === undefined
      ? undefined
      : spreadReplicaMask(tf.reshape(updated, [rows[1] - rows[0], 1]), shape);
  }

  /**
   * Which rows of a variable holding `rows` this kind updates, `(rows)` as 1 / 0: its own rows
   * that are active, computed on the device (the mask of active rows is never read back);
   * undefined when that is every row.
   */
  private updatedRows(
    kind: OptimizerKind,
    single: boolean,
    activeRow: tf.Tensor | undefined,
    rows: RowRange,
  ): tf.Tensor1D | undefined {
    const [start, end] = rows;
    const active =
      activeRow === undefined
        ? undefined
        : start === 0 && end === activeRow.shape[0]
          ? activeRow
          : tf.slice(activeRow, [start], [end - start]);
    const own = kind.rows?.slice(start, end);
    const ownRow =
      single || own === undefined || own.every(Boolean)
        ? undefined
        : tf.tensor1d(own.map(Number), 'float32');
    if (active === undefined || ownRow === undefined)
      return (active ?? ownRow) as tf.Tensor1D | undefined;
    return tf.mul(ownRow, active);
  }

  /** The rows each variable holds, checked against the plan once the variables are known. */
  private checkRows(variables: readonly tf.Variable[]): (index: number) => RowRange {
    const planned = this.variableRows;
    if (planned === undefined) {
      return (index) => [0, variables[index]?.shape[0] ?? 0];
    }
    if (planned.length !== variables.length) {
      throw new InvalidArgumentError({
        argument: 'variables',
        problem: `the optimiser's plan gives the rows of ${planned.length} variables, got ${variables.length}`,
      });
    }
    return (index) => planned[index];
  }

  private build(shapes: readonly (readonly number[])[]): tf.Variable[][][] {
    this.shapes = shapes.map((shape) => [...shape]);
    const slots = this.optimizerKinds.map((kind) =>
      shapes.map((shape) =>
        kind.rule.slots.map((slot) =>
          tf.tidy(() => tf.variable(tf.fill([...shape], slot.initialValue), false)),
        ),
      ),
    );
    this.slots = slots;
    return slots;
  }

  private checkUsable(): void {
    if (this.disposed) {
      throw new InvalidArgumentError({
        argument: 'optimizer',
        problem: `this ${this.name} optimiser has been disposed`,
      });
    }
  }
}

function isPlan(
  settings: ReplicaOptimizerSettings | ReplicaOptimizerPlan,
): settings is ReplicaOptimizerPlan {
  return 'replicas' in settings;
}

/**
 * Creates a multi-replica optimiser: Keras 3's SGD, RMSprop, Adam, Adamax, Adagrad, Adadelta,
 * Nadam or Amsgrad (Adam with `amsgrad`), with Keras's hyperparameter defaults and n3fit's
 * default learning rates, written as plain tensor updates so that every replica keeps its own
 * clipping and statistics. Where the backend registers the fused Adam-family kernel
 * (`ADAM_FAMILY_UPDATE_KERNEL` of `@partonfit/backend`; the native addon does), Adam and Nadam
 * rows are updated by it instead, one kernel per variable, to float32 rounding the same numbers.
 *
 * Given a plan ({@link ReplicaOptimizerPlan}), every replica has its own optimiser: replicas of
 * one optimiser share its formula (one update of each variable for all of them) with their own
 * learning rates and clipnorms as per-row factors; replicas of different optimisers are updated
 * by each one's formula and the rows are selected, per variable only for the kinds whose rows it
 * holds. Each replica is still updated exactly as its own single-replica optimiser would.
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
 * @throws InvalidArgumentError for bad settings (see {@link resolveOptimizerSettings}), or a plan
 *   without replicas or whose variable rows fall outside them.
 */
export function createReplicaOptimizer(
  settings: ReplicaOptimizerSettings | ReplicaOptimizerPlan,
): ReplicaOptimizer {
  if (!isPlan(settings)) {
    return new MultiReplicaOptimizer([resolveOptimizerSettings(settings)], undefined, undefined);
  }
  const rows = settings.replicas.map((row) => resolveOptimizerSettings(row));
  if (rows.length === 0) {
    throw new InvalidArgumentError({ argument: 'replicas', problem: 'expected at least one' });
  }
  settings.variableRows?.forEach(([start, end], index) => {
    if (!(
      Number.isInteger(start) &&
      Number.isInteger(end) &&
      start >= 0 &&
      end > start &&
      end <= rows.length
    )) {
      throw new InvalidArgumentError({
        argument: `variableRows[${index}]`,
        problem: `expected rows [start, end) within the ${rows.length} replicas, got [${start}, ${end})`,
      });
    }
  });
  return new MultiReplicaOptimizer(rows, settings.variableRows, rows.length);
}
