import * as tf from '@tensorflow/tfjs-core';
import {
  canonicalJson,
  InvalidArgumentError,
  replicaParameters,
  type DisFkTensor,
  type ObservableTensors,
  type Runcard,
} from '@partonfit/core';
import type { FitDataset, FitInputs, LagrangeDataset } from '@partonfit/fktables';
import {
  Chi2Loss,
  concatenate,
  ConstantMatrix,
  IntegrabilityLoss,
  ObservableLayer,
  PositivityLoss,
  sameDisWindow,
  shareRotations,
  SharedRotationChi2s,
  StackedDisTables,
  type LagrangePenalty,
} from '@partonfit/layers';
import { lagrangeSchedule, type LagrangeSchedule } from '../lagrange/lagrange-schedule.js';

/** One positivity or integrability set: its observable, its penalty and its multiplier's schedule. */
export interface LagrangeTerm {
  readonly kind: 'positivity' | 'integrability';
  /** `positivity/<set>` or `integrability/<set>`. */
  readonly name: string;
  readonly observable: ObservableLayer;
  readonly penalty: LagrangePenalty;
  /** The multiplier's schedule: every replica's, or the first replica's when they differ. */
  readonly schedule: LagrangeSchedule;
  /** Each replica's schedule `(replicas)`, when they differ (then λ is per replica). */
  readonly schedules: readonly LagrangeSchedule[] | undefined;
}

/** The losses of one forward pass, each per replica `(replicas)` except `total`. */
export interface FitLosses {
  /** Training χ² plus the positivity and integrability penalties: what is minimised. */
  readonly training: tf.Tensor1D;
  /** Training χ² alone. */
  readonly trainingChi2: tf.Tensor1D;
  /** Validation χ² plus the positivity penalties (upstream's validation loss). */
  readonly validation: tf.Tensor1D;
  /** Validation χ² divided by each replica's number of validation points (or modes). */
  readonly validationChi2PerPoint: tf.Tensor1D;
  /** The largest positivity penalty over the positivity sets (0 without any). */
  readonly positivity: tf.Tensor1D;
  /** Σ over replicas of `training`: the scalar whose gradient the optimiser follows. */
  readonly total: tf.Scalar;
}

/** One replica's settings of the Lagrange multipliers. */
export interface ReplicaLagrangeOptions {
  readonly epochs: number;
  readonly positivity: {
    readonly initial?: number | undefined;
    readonly multiplier?: number | undefined;
  };
  readonly integrability: {
    readonly initial?: number | undefined;
    readonly multiplier?: number | undefined;
  };
}

/** The settings of the Lagrange multipliers, from the runcard. */
export interface LagrangeOptions extends ReplicaLagrangeOptions {
  /**
   * Each replica's own settings `(replicas)`, when they differ (`parameters_per_replica`,
   * `trial_specs`); the fields above are then the first replica's.
   */
  readonly replicas?: readonly ReplicaLagrangeOptions[];
}

function replicaLagrangeOptions(parameters: Runcard['parameters']): ReplicaLagrangeOptions {
  return {
    epochs: parameters.epochs,
    positivity: parameters.positivity,
    integrability: parameters.integrability,
  };
}

/**
 * The Lagrange settings of a runcard: its epochs and `parameters.{positivity, integrability}`,
 * or with `replicas` each replica's (`replicaParameters`) when they differ.
 *
 * @param replicas - the replicas, 1-based, in the order of the fit's replica axis
 */
export function lagrangeOptions(runcard: Runcard, replicas?: readonly number[]): LagrangeOptions {
  const shared = replicaLagrangeOptions(runcard.parameters);
  if (replicas === undefined || replicas.length === 0) return shared;
  const own = replicas.map((replica) =>
    replicaLagrangeOptions(replicaParameters(runcard, replica)),
  );
  const texts = own.map((options) => canonicalJson(options));
  if (texts.every((text) => text === texts[0])) return own[0] ?? shared;
  return { ...(own[0] ?? shared), replicas: own };
}

/**
 * The positivity and integrability terms of a fit, as {@link FitObjective} builds them: each
 * set's observable (its own copy of the FK table), its penalty with the multiplier at the
 * schedule's initial value, and the schedule. Free them with {@link disposeLagrangeTerms}.
 *
 * @param inputs - the fit inputs, whose `positivity` and `integrability` sets are used
 * @param lagrange - the multipliers' settings ({@link lagrangeOptions})
 */
export function lagrangeTerms(inputs: FitInputs, lagrange: LagrangeOptions): LagrangeTerm[] {
  const terms = (
    kind: LagrangeTerm['kind'],
    sets: readonly LagrangeDataset[],
    makePenalty: (multiplier: number | readonly number[]) => LagrangePenalty,
  ) =>
    sets.map((set): LagrangeTerm => {
      const scheduleOf = (options: ReplicaLagrangeOptions) =>
        lagrangeSchedule({ ...options[kind], maxLambda: set.maxLambda, epochs: options.epochs });
      const schedule = scheduleOf(lagrange);
      const own = lagrange.replicas?.map(scheduleOf);
      const differ = own?.some(
        (other) => other.initial !== schedule.initial || other.multiplier !== schedule.multiplier,
      );
      const schedules = differ === true ? own : undefined;
      return {
        kind,
        name: `${kind}/${set.name}`,
        observable: new ObservableLayer({ observable: set.observable }),
        penalty: makePenalty(schedules?.map((each) => each.initial) ?? schedule.initial),
        schedule,
        schedules,
      };
    });
  return [
    ...terms('positivity', inputs.positivity, (multiplier) => new PositivityLoss({ multiplier })),
    ...terms(
      'integrability',
      inputs.integrability,
      (multiplier) => new IntegrabilityLoss({ multiplier }),
    ),
  ];
}

/**
 * Each term's penalty for the PDF, in the order of `terms`.
 *
 * @param pdf - x·f, `(replicas, x, flavour)`
 * @returns one `(replicas)` tensor per term
 */
export function lagrangePenalties(terms: readonly LagrangeTerm[], pdf: tf.Tensor3D): tf.Tensor1D[] {
  return terms.map((term) => term.penalty.apply(term.observable.apply(pdf)) as tf.Tensor1D);
}

/** Frees the terms' layers. */
export function disposeLagrangeTerms(terms: readonly LagrangeTerm[]): void {
  for (const term of terms) {
    if (term.observable.built) term.observable.dispose();
    if (term.penalty.built) term.penalty.dispose();
  }
}

/**
 * The DIS tables of an observable that can join a {@link StackedDisTables}: those of a
 * single-operand `NULL` observable whose tables are all DIS and read the same x nodes
 * (its predictions are then its tables' side by side); undefined for any other observable.
 */
function stackableTables(observable: ObservableTensors): DisFkTensor[] | undefined {
  if (observable.operation !== 'NULL' || observable.operands.length !== 1) return undefined;
  const operand = observable.operands[0];
  if (operand.length === 0) return undefined;
  const tables: DisFkTensor[] = [];
  for (const table of operand) {
    if (table.kind !== 'dis') return undefined;
    tables.push(table);
  }
  const first = tables[0];
  return tables.every((table) => sameDisWindow(table, first)) ? tables : undefined;
}

/**
 * Splits items into runs for stacking: consecutive items whose tables stack (see
 * {@link stackableTables}), read the same x nodes and satisfy `joins` form one run; every other
 * item is a run of its own without tables.
 */
function stackRuns<T>(
  items: readonly T[],
  observableOf: (item: T) => ObservableTensors,
  joins: (previous: T, next: T) => boolean = () => true,
): { items: T[]; tables: DisFkTensor[] | undefined }[] {
  const runs: { items: T[]; tables: DisFkTensor[] | undefined }[] = [];
  for (const item of items) {
    const tables = stackableTables(observableOf(item));
    const last = runs.at(-1);
    const previous = last?.items.at(-1);
    if (
      tables !== undefined &&
      last?.tables !== undefined &&
      previous !== undefined &&
      sameDisWindow(last.tables[0], tables[0]) &&
      joins(previous, item)
    ) {
      last.items.push(item);
      last.tables.push(...tables);
    } else {
      runs.push({ items: [item], tables });
    }
  }
  return runs;
}

/**
 * Consecutive positivity or integrability sets of one kind, on one x window, with the same
 * penalty terms: their observables in one stacked product, each column scaled by its set's λ
 * and each set's terms summed by a constant `(Σ points, sets)` indicator product. A set that
 * cannot be stacked is a group of its own, with its own observable and penalty layers.
 */
interface LagrangeGroup {
  readonly kind: LagrangeTerm['kind'];
  readonly terms: readonly LagrangeTerm[];
  readonly stacked:
    | {
        readonly tables: StackedDisTables;
        /** `(Σ points, sets)`: 1 where a column belongs to a set. */
        readonly indicator: ConstantMatrix;
        /** λ of each column `(1, Σ points)`, kept while no multiplier is written. */
        readonly columns: CachedColumns;
      }
    | undefined;
}

function lagrangeGroups(
  stacked: boolean,
  terms: readonly LagrangeTerm[],
  sets: ReadonlyMap<LagrangeTerm, LagrangeDataset>,
  replicas: number,
): LagrangeGroup[] {
  const runs = stackRuns(
    terms,
    (term) => (stacked ? (sets.get(term) as LagrangeDataset).observable : UNSTACKABLE_OBSERVABLE),
    (previous, next) => previous.kind === next.kind && previous.penalty.hasSameTerms(next.penalty),
  );
  return runs.map((run): LagrangeGroup => {
    const first = run.items[0];
    if (run.tables === undefined) return { kind: first.kind, terms: run.items, stacked: undefined };
    const tables = new StackedDisTables(run.tables);
    const indicator = new Float32Array(tables.ndata * run.items.length);
    let row = 0;
    run.items.forEach((term, s) => {
      const points = (sets.get(term) as LagrangeDataset).observable.ndata;
      for (let n = 0; n < points; n++) indicator[(row + n) * run.items.length + s] = 1;
      row += points;
      // λ exists once the penalty has run (a layer tfjs can dispose): run it once on zeros.
      if (!term.penalty.built) {
        tf.tidy(() => {
          term.penalty.apply(tf.zeros([replicas, points]));
        });
      }
    });
    const matrix = ConstantMatrix.fromArray(indicator, tables.ndata, run.items.length);
    return {
      kind: first.kind,
      terms: run.items,
      stacked: { tables, indicator: matrix, columns: new CachedColumns(matrix) },
    };
  });
}

/**
 * Each column's λ, `(1, Σ points)` — or `(replicas, Σ points)` when some set has a λ per
 * replica — from the sets' multipliers, `(1)` or `(replicas, 1)` each: recomputed only when a
 * multiplier has been written since (every 100 epochs, or from a checkpoint), not every step.
 */
class CachedColumns {
  private key: readonly object[] = [];
  private columns: tf.Tensor2D | undefined;

  /** @param indicator - `(Σ points, sets)`, 1 where a column belongs to a set */
  constructor(private readonly indicator: ConstantMatrix) {}

  of(multipliers: readonly tf.Tensor[]): tf.Tensor2D {
    const key = multipliers.map((multiplier) => multiplier.dataId);
    const same = key.length === this.key.length && key.every((id, i) => id === this.key[i]);
    if (this.columns === undefined || !same) {
      this.columns?.dispose();
      const rows = Math.max(...multipliers.map((multiplier) => multiplier.shape[0] ?? 1));
      this.columns = tf.keep(
        tf.tidy(() =>
          tf.matMul(
            tf.concat(
              multipliers.map((multiplier) => {
                const column = tf.reshape(multiplier, [multiplier.shape[0] ?? 1, 1]);
                return column.shape[0] === rows ? column : tf.mul(tf.ones([rows, 1]), column);
              }),
              1,
            ) as tf.Tensor2D,
            this.indicator.transposed,
          ),
        ),
      );
      this.key = key;
    }
    return this.columns;
  }

  dispose(): void {
    this.columns?.dispose();
    this.columns = undefined;
  }
}

/**
 * The penalties of a group's sets, `(replicas, sets)`.
 *
 * @param pdf - x·f, `(replicas, x, flavour)`
 */
function groupPenalties(group: LagrangeGroup, pdf: tf.Tensor3D): tf.Tensor2D {
  const { stacked, terms } = group;
  if (stacked === undefined) {
    return tf.stack(
      terms.map((term) => term.penalty.apply(term.observable.apply(pdf)) as tf.Tensor1D),
      1,
    ) as tf.Tensor2D;
  }
  const columns = stacked.columns.of(terms.map((term) => term.penalty.multiplierTensor()));
  const scaled = tf.mul<tf.Tensor2D>(stacked.tables.apply(pdf), columns);
  const penalty = terms[0].penalty;
  return stacked.indicator.multiply(penalty.scaledTerms(scaled));
}

/** An observable that {@link stackableTables} never stacks: how stacking is switched off. */
const UNSTACKABLE_OBSERVABLE: ObservableTensors = {
  name: 'unstacked',
  ndata: 0,
  operation: 'ADD',
  operands: [],
};

/** Options of {@link FitObjective}. */
export interface FitObjectiveOptions {
  /**
   * Whether consecutive DIS datasets, positivity and integrability sets on one x window are
   * stacked into one product each and the training and validation χ² read in one pass (fewer,
   * larger kernels: a step at few replicas is dominated by their dispatch). Default: on every
   * backend but the plain JavaScript `cpu`, whose small kernels cost little to dispatch next to
   * their arithmetic and whose fits so stay the same to the bit as with one layer per dataset.
   * Either way the losses are the same to float32 rounding.
   */
  readonly stacked?: boolean;
}

/**
 * Everything a training step computes from the PDF, for all replicas at once: the observables
 * of every dataset (concatenated along the data axis, `(replicas, data)`) and, read off those
 * same predictions, the training χ², the validation χ² and the experimental χ²; the positivity
 * and integrability penalties from their own observables. No second model runs for validation.
 * When no replica has a validation point (every `frac` is 1), the validation χ² is the
 * training χ², as upstream: stopping then watches the training loss.
 */
export class FitObjective {
  /** The datasets' predictions in order: runs of stacked DIS datasets, or one dataset's layer. */
  private readonly datasets: readonly (ObservableLayer | StackedDisTables)[];
  private readonly trainingChi2: Chi2Loss;
  private readonly validationChi2: Chi2Loss;
  /** Training and validation χ² in one pass, when their structures share their rotations. */
  private readonly stepChi2s: SharedRotationChi2s | undefined;
  private readonly experimentalChi2: Chi2Loss;
  private readonly validationCounts: tf.Tensor1D;
  /**
   * Each replica's number of validation points (or modes), `(replicas)`: the training counts
   * when no replica has a validation point, since the validation χ² is then the training χ².
   */
  readonly validationPoints: Int32Array;
  /** The positivity and integrability terms, positivity first ({@link lagrangeTerms}). */
  readonly lagrangeTerms: readonly LagrangeTerm[];
  private readonly lagrangeGroups: readonly LagrangeGroup[];
  private readonly replicas: number;

  /**
   * @param inputs - the fit inputs
   * @param lagrange - the multipliers' settings ({@link lagrangeOptions})
   * @param options - whether to stack datasets, sets and χ² ({@link FitObjectiveOptions})
   */
  constructor(inputs: FitInputs, lagrange: LagrangeOptions, options: FitObjectiveOptions = {}) {
    this.replicas = inputs.replicas.length;
    const stacked = options.stacked ?? tf.getBackend() !== 'cpu';
    const joins = () => stacked;
    const observableOf = (dataset: FitDataset) =>
      stacked ? dataset.observable : UNSTACKABLE_OBSERVABLE;
    this.datasets = stackRuns(inputs.datasets, observableOf, joins).map((run) =>
      run.tables === undefined
        ? new ObservableLayer({ observable: run.items[0].observable })
        : new StackedDisTables(run.tables),
    );
    this.trainingChi2 = new Chi2Loss({ structure: inputs.training, data: inputs.pseudodata });
    const withoutValidation = inputs.validationCounts.every((count) => count === 0);
    this.validationChi2 = new Chi2Loss({
      structure: withoutValidation ? inputs.training : inputs.validation,
      data: inputs.pseudodata,
    });
    const stepStructures = [
      inputs.training,
      withoutValidation ? inputs.training : inputs.validation,
    ];
    this.stepChi2s =
      stacked && shareRotations(stepStructures)
        ? new SharedRotationChi2s(
            stepStructures.filter((structure) => structure.kind === 'eigenbasis'),
            inputs.pseudodata,
          )
        : undefined;
    this.experimentalChi2 = new Chi2Loss({
      structure: inputs.experimental,
      data: Float32Array.from(inputs.centralData),
      dataReplicas: 1,
    });
    this.validationPoints = withoutValidation ? inputs.trainingCounts : inputs.validationCounts;
    this.validationCounts = tf.tensor1d(
      Array.from(this.validationPoints, (count) => Math.max(count, 1)),
    );
    this.lagrangeTerms = lagrangeTerms(inputs, lagrange);
    const sets = [...inputs.positivity, ...inputs.integrability];
    this.lagrangeGroups = lagrangeGroups(
      stacked,
      this.lagrangeTerms,
      new Map(this.lagrangeTerms.map((term, t) => [term, sets[t]])),
      this.replicas,
    );
  }

  /** The predictions of every dataset, `(replicas, data)`, joined without a clone of each. */
  predictions(pdf: tf.Tensor3D): tf.Tensor2D {
    return tf.tidy(() =>
      concatenate(
        this.datasets.map((part) =>
          part instanceof StackedDisTables ? part.apply(pdf) : (part.apply(pdf) as tf.Tensor2D),
        ),
        1,
      ),
    );
  }

  /**
   * The penalty of every positivity or integrability set, with its multiplier λ: consecutive
   * sets that stack computed together (see {@link StackedDisTables}), the others each by its
   * own observable and penalty layers.
   *
   * @param pdf - x·f, `(replicas, x, flavour)`
   * @returns `(replicas, sets)` for the sets of `kind` in the order of
   *   {@link FitObjective.lagrangeTerms}, or undefined when there are none
   */
  penalties(kind: LagrangeTerm['kind'], pdf: tf.Tensor3D): tf.Tensor2D | undefined {
    return tf.tidy(() => {
      const groups = this.lagrangeGroups
        .filter((group) => group.kind === kind)
        .map((group) => groupPenalties(group, pdf));
      if (groups.length === 0) return undefined;
      return groups.length === 1 ? groups[0] : tf.concat(groups, 1);
    });
  }

  /** The losses of one forward pass (see {@link FitLosses}). */
  losses(pdf: tf.Tensor3D): FitLosses {
    return tf.tidy(() => {
      const predictions = this.predictions(pdf);
      const positivity = this.penalties('positivity', pdf);
      const integrability = this.penalties('integrability', pdf);
      const zeros = () => tf.zeros<tf.Rank.R1>([this.replicas]);
      const sum = (sets: tf.Tensor2D | undefined) =>
        sets === undefined ? zeros() : tf.sum<tf.Tensor1D>(sets, 1);
      const [trainingChi2, validationChi2] = this.stepChi2s?.apply(predictions) ?? [
        this.trainingChi2.apply(predictions) as tf.Tensor1D,
        this.validationChi2.apply(predictions) as tf.Tensor1D,
      ];
      const positivitySum = sum(positivity);
      const training = tf.add<tf.Tensor1D>(tf.add(trainingChi2, positivitySum), sum(integrability));
      return {
        training,
        trainingChi2,
        validation: tf.add<tf.Tensor1D>(validationChi2, positivitySum),
        validationChi2PerPoint: tf.div<tf.Tensor1D>(validationChi2, this.validationCounts),
        positivity: positivity === undefined ? zeros() : tf.max<tf.Tensor1D>(positivity, 1),
        total: tf.sum<tf.Scalar>(training),
      };
    });
  }

  /** Per replica: training, validation and experimental χ² (without penalties), `(replicas)` each. */
  chi2s(pdf: tf.Tensor3D): {
    training: tf.Tensor1D;
    validation: tf.Tensor1D;
    experimental: tf.Tensor1D;
  } {
    return tf.tidy(() => {
      const predictions = this.predictions(pdf);
      return {
        training: this.trainingChi2.apply(predictions) as tf.Tensor1D,
        validation: this.validationChi2.apply(predictions) as tf.Tensor1D,
        experimental: this.experimentalChi2.apply(predictions) as tf.Tensor1D,
      };
    });
  }

  /**
   * Grows every multiplier by its schedule's factor (call every 100 epochs), on the device: each
   * replica's own factor when the replicas' schedules differ.
   */
  updateMultipliers(): void {
    for (const term of this.lagrangeTerms) {
      term.penalty.scaleMultiplier(
        term.schedules?.map((schedule) => schedule.multiplier) ?? term.schedule.multiplier,
      );
    }
  }

  /**
   * The current multiplier λ of every positivity and integrability set, by name
   * (`positivity/<set>`, `integrability/<set>`): one value, or one per replica where the
   * replicas' schedules differ; in one read-back from the device (a host sync: for checkpoints
   * at a read-back, not every step). Sets whose penalty has not run yet report their initial λ.
   */
  async multipliers(): Promise<Map<string, Float32Array>> {
    const terms = this.lagrangeTerms;
    if (terms.length === 0) return new Map();
    const all = tf.tidy(() =>
      tf.concat(
        terms.map((term) =>
          term.penalty.built
            ? tf.reshape(term.penalty.getWeights()[0], [-1])
            : tf.tensor1d([...term.penalty.initialMultipliers]),
        ),
      ),
    );
    try {
      const values = await all.data();
      let offset = 0;
      return new Map(
        terms.map((term) => {
          const size = term.penalty.initialMultipliers.length;
          const own = Float32Array.from(values.subarray(offset, offset + size));
          offset += size;
          return [term.name, own];
        }),
      );
    } finally {
      all.dispose();
    }
  }

  /**
   * Sets the multiplier λ of every positivity and integrability set, e.g. from a checkpoint
   * taken with {@link FitObjective.multipliers} (float32 values come back exactly).
   *
   * @param values - λ by name (`positivity/<set>`, `integrability/<set>`), one for every set: a
   *   number for every replica, or one per replica where the replicas' schedules differ
   * @throws InvalidArgumentError when a set is missing or unknown, a value is not finite, or a
   *   set is given another number of values than it has multipliers
   */
  setMultipliers(values: ReadonlyMap<string, number | Float32Array>): void {
    const terms = this.lagrangeTerms;
    const names = terms.map((term) => term.name);
    const unknown = [...values.keys()].filter((name) => !names.includes(name));
    const missing = names.filter((name) => !values.has(name));
    if (unknown.length > 0 || missing.length > 0) {
      const listed = (label: string, list: string[]) =>
        list.length === 0 ? '' : `; ${label} [${list.join(', ')}]`;
      throw new InvalidArgumentError({
        argument: 'multipliers',
        problem: `expected the sets [${names.join(', ')}]${listed('missing', missing)}${listed('unknown', unknown)}`,
      });
    }
    const listOf = (value: number | Float32Array) =>
      typeof value === 'number' ? [value] : Array.from(value);
    for (const [name, value] of values) {
      const list = listOf(value);
      const bad = list.find((each) => !Number.isFinite(each));
      if (bad !== undefined) {
        throw new InvalidArgumentError({
          argument: `multipliers.${name}`,
          problem: `expected finite numbers, got ${bad}`,
        });
      }
      const expected = terms.find((term) => term.name === name)?.penalty.initialMultipliers.length;
      if (list.length !== 1 && list.length !== expected) {
        throw new InvalidArgumentError({
          argument: `multipliers.${name}`,
          problem: `expected ${expected} value(s), one per replica, got ${list.length}`,
        });
      }
    }
    for (const term of terms) {
      // λ exists once the penalty has run: run it once on zeros (it has no other state).
      if (!term.penalty.built) {
        tf.tidy(() => {
          term.penalty.apply(tf.zeros([this.replicas, 1]));
        });
      }
      const list = listOf(values.get(term.name) ?? term.penalty.initialMultiplier);
      term.penalty.setMultiplier(list.length === 1 ? (list[0] ?? 1) : list);
    }
  }

  /** Frees the objective's tensors. */
  dispose(): void {
    this.validationCounts.dispose();
    this.stepChi2s?.dispose();
    for (const part of this.datasets) {
      if (part instanceof StackedDisTables) part.dispose();
      else if (part.built) part.dispose();
    }
    for (const group of this.lagrangeGroups) {
      group.stacked?.tables.dispose();
      group.stacked?.indicator.dispose();
      group.stacked?.columns.dispose();
    }
    for (const layer of [this.trainingChi2, this.validationChi2, this.experimentalChi2]) {
      if (layer.built) layer.dispose();
    }
    disposeLagrangeTerms(this.lagrangeTerms);
  }
}
