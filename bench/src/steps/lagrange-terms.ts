import type * as tf from '@tensorflow/tfjs-core';
import type { Runcard } from '@partonfit/core';
import type { FitInputs, LagrangeDataset } from '@partonfit/fktables';
import {
  IntegrabilityLoss,
  ObservableLayer,
  PositivityLoss,
  type LagrangePenalty,
} from '@partonfit/layers';
import { lagrangeSchedule } from '@partonfit/trainer';

/** One positivity or integrability set's observable and penalty, built as the trainer builds them. */
export interface LagrangeTerm {
  readonly kind: 'positivity' | 'integrability';
  readonly observable: ObservableLayer;
  readonly penalty: LagrangePenalty;
}

/**
 * The positivity and integrability terms of a fit, each with its own copy of its FK table and
 * its multiplier at the schedule's initial value — for steps and components that compute the
 * penalties outside the trainer's `FitObjective` (whose terms are private).
 */
export function lagrangeTerms(runcard: Runcard, inputs: FitInputs): LagrangeTerm[] {
  const { parameters } = runcard;
  const terms = (
    kind: LagrangeTerm['kind'],
    sets: readonly LagrangeDataset[],
    makePenalty: (multiplier: number) => LagrangePenalty,
  ) =>
    sets.map((set): LagrangeTerm => {
      const schedule = lagrangeSchedule({
        ...parameters[kind],
        maxLambda: set.maxLambda,
        epochs: parameters.epochs,
      });
      return {
        kind,
        observable: new ObservableLayer({ observable: set.observable }),
        penalty: makePenalty(schedule.initial),
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

/** Each term's penalty `(replicas)` for the PDF `(replicas, x, flavour)`, in the order of `terms`. */
export function lagrangePenalties(terms: readonly LagrangeTerm[], pdf: tf.Tensor): tf.Tensor1D[] {
  return terms.map((term) => term.penalty.apply(term.observable.apply(pdf)) as tf.Tensor1D);
}

/** Frees the terms' layers. */
export function disposeLagrangeTerms(terms: readonly LagrangeTerm[]): void {
  for (const term of terms) {
    if (term.observable.built) term.observable.dispose();
    if (term.penalty.built) term.penalty.dispose();
  }
}
