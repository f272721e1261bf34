import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type Runcard } from '@partonfit/core';
import type { FitInputs, LagrangeDataset } from '@partonfit/fktables';
import {
  Chi2Loss,
  IntegrabilityLoss,
  ObservableLayer,
  PositivityLoss,
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
  readonly schedule: LagrangeSchedule;
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

/** The settings of the Lagrange multipliers, from the runcard. */
export interface LagrangeOptions {
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

/** The Lagrange settings of a runcard: its epochs and `parameters.{positivity, integrability}`. */
export function lagrangeOptions(runcard: Runcard): LagrangeOptions {
  const { parameters } = runcard;
  return {
    epochs: parameters.epochs,
    positivity: parameters.positivity,
    integrability: parameters.integrability,
  };
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
    makePenalty: (multiplier: number) => LagrangePenalty,
  ) =>
    sets.map((set): LagrangeTerm => {
      const schedule = lagrangeSchedule({
        ...lagrange[kind],
        maxLambda: set.maxLambda,
        epochs: lagrange.epochs,
      });
      return {
        kind,
        name: `${kind}/${set.name}`,
        observable: new ObservableLayer({ observable: set.observable }),
        penalty: makePenalty(schedule.initial),
        schedule,
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
 * Everything a training step computes from the PDF, for all replicas at once: the observables
 * of every dataset (concatenated along the data axis, `(replicas, data)`) and, read off those
 * same predictions, the training χ², the validation χ² and the experimental χ²; the positivity
 * and integrability penalties from their own observables. No second model runs for validation.
 * When no replica has a validation point (every `frac` is 1), the validation χ² is the
 * training χ², as upstream: stopping then watches the training loss.
 */
export class FitObjective {
  private readonly datasets: readonly ObservableLayer[];
  private readonly trainingChi2: Chi2Loss;
  private readonly validationChi2: Chi2Loss;
  private readonly experimentalChi2: Chi2Loss;
  private readonly validationCounts: tf.Tensor1D;
  /**
   * Each replica's number of validation points (or modes), `(replicas)`: the training counts
   * when no replica has a validation point, since the validation χ² is then the training χ².
   */
  readonly validationPoints: Int32Array;
  /** The positivity and integrability terms, positivity first ({@link lagrangeTerms}). */
  readonly lagrangeTerms: readonly LagrangeTerm[];
  private readonly replicas: number;

  constructor(inputs: FitInputs, lagrange: LagrangeOptions) {
    this.replicas = inputs.replicas.length;
    this.datasets = inputs.datasets.map(
      (dataset) => new ObservableLayer({ observable: dataset.observable }),
    );
    this.trainingChi2 = new Chi2Loss({ structure: inputs.training, data: inputs.pseudodata });
    const withoutValidation = inputs.validationCounts.every((count) => count === 0);
    this.validationChi2 = new Chi2Loss({
      structure: withoutValidation ? inputs.training : inputs.validation,
      data: inputs.pseudodata,
    });
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
  }

  /** The predictions of every dataset, `(replicas, data)`. */
  predictions(pdf: tf.Tensor3D): tf.Tensor2D {
    return tf.tidy(() =>
      tf.concat(
        this.datasets.map((layer) => layer.apply(pdf) as tf.Tensor2D),
        1,
      ),
    );
  }

  /** The losses of one forward pass (see {@link FitLosses}). */
  losses(pdf: tf.Tensor3D): FitLosses {
    return tf.tidy(() => {
      const predictions = this.predictions(pdf);
      const zeros = tf.zeros<tf.Rank.R1>([this.replicas]);
      const penalties = lagrangePenalties(this.lagrangeTerms, pdf);
      const ofKind = (kind: LagrangeTerm['kind']) =>
        penalties.filter((_, t) => this.lagrangeTerms[t].kind === kind);
      const positivity = ofKind('positivity');
      const integrability = ofKind('integrability');
      const sum = (terms: tf.Tensor1D[]) =>
        terms.reduce((total, term) => tf.add(total, term), zeros);
      const trainingChi2 = this.trainingChi2.apply(predictions) as tf.Tensor1D;
      const validationChi2 = this.validationChi2.apply(predictions) as tf.Tensor1D;
      const training = tf.add<tf.Tensor1D>(
        tf.add(trainingChi2, sum(positivity)),
        sum(integrability),
      );
      return {
        training,
        trainingChi2,
        validation: tf.add<tf.Tensor1D>(validationChi2, sum(positivity)),
        validationChi2PerPoint: tf.div<tf.Tensor1D>(validationChi2, this.validationCounts),
        positivity:
          positivity.length === 0 ? zeros : tf.max<tf.Tensor1D>(tf.stack(positivity, 1), 1),
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

  /** Grows every multiplier by its schedule's factor (call every 100 epochs), on the device. */
  updateMultipliers(): void {
    for (const term of this.lagrangeTerms) {
      term.penalty.scaleMultiplier(term.schedule.multiplier);
    }
  }

  /**
   * The current multiplier λ of every positivity and integrability set, by name
   * (`positivity/<set>`, `integrability/<set>`), in one read-back from the device (a host sync:
   * for checkpoints at a read-back, not every step). Sets whose penalty has not run yet report
   * their initial λ.
   */
  async multipliers(): Promise<Map<string, number>> {
    const terms = this.lagrangeTerms;
    if (terms.length === 0) return new Map();
    const all = tf.tidy(() =>
      tf.concat(
        terms.map((term) =>
          term.penalty.built
            ? (term.penalty.getWeights()[0] as tf.Tensor1D)
            : tf.tensor1d([term.penalty.initialMultiplier]),
        ),
      ),
    );
    try {
      const values = await all.data();
      return new Map(terms.map((term, i) => [term.name, values[i]]));
    } finally {
      all.dispose();
    }
  }

  /**
   * Sets the multiplier λ of every positivity and integrability set, e.g. from a checkpoint
   * taken with {@link FitObjective.multipliers} (float32 values come back exactly).
   *
   * @param values - λ by name (`positivity/<set>`, `integrability/<set>`), one for every set
   * @throws InvalidArgumentError when a set is missing or unknown, or a value is not finite
   */
  setMultipliers(values: ReadonlyMap<string, number>): void {
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
    const bad = [...values].find(([, value]) => !Number.isFinite(value));
    if (bad !== undefined) {
      throw new InvalidArgumentError({
        argument: `multipliers.${bad[0]}`,
        problem: `expected a finite number, got ${bad[1]}`,
      });
    }
    for (const term of terms) {
      // λ exists once the penalty has run: run it once on zeros (it has no other state).
      if (!term.penalty.built) {
        tf.tidy(() => {
          term.penalty.apply(tf.zeros([this.replicas, 1]));
        });
      }
      term.penalty.setMultiplier(values.get(term.name) ?? term.penalty.initialMultiplier);
    }
  }

  /** Frees the objective's tensors. */
  dispose(): void {
    this.validationCounts.dispose();
    for (const layer of [
      ...this.datasets,
      this.trainingChi2,
      this.validationChi2,
      this.experimentalChi2,
    ]) {
      if (layer.built) layer.dispose();
    }
    disposeLagrangeTerms(this.lagrangeTerms);
  }
}
