import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { predictObservable, type Observable } from '@partonfit/fktables';
import type { FitReplicaSet } from './fit-replicas.js';
import { buildReplicaModel, replicaPdfAt } from './replica-model.js';

/** Predictions of a fit's replicas for one observable. */
export interface FitPredictions {
  /** The member asked for, or for member 0 the mean of every member's predictions, `(data)`. */
  readonly predictions: Float64Array;
  /** Each member evaluated (all of them for member 0), in member order, `(data)` each. */
  readonly members: readonly { readonly member: number; readonly predictions: Float64Array }[];
}

function checkQ0(set: FitReplicaSet, observable: Observable): void {
  for (const table of observable.operands.flat()) {
    if (Math.abs(table.q0 - set.q0) > 1e-9 * set.q0) {
      throw new InputFileError({
        file: table.file,
        key: 'Q0',
        problem: `the table is at Q0 = ${table.q0} GeV, but fit ${set.fit}'s PDF is at Q0 = ${set.q0} GeV`,
      });
    }
  }
}

/**
 * The predictions of a fit's replicas ({@link FitReplicaSet}) for an observable: each member's
 * single-replica model evaluated exactly at each FK table's x-grid (no interpolation) and
 * convolved in float64. Member 0 is the mean of all members' predictions (for a hadronic
 * observable not the prediction of the mean PDF, as for LHAPDF member 0).
 *
 * @param member - 0 for the mean, else a member number of the set
 * @throws InvalidArgumentError for a member the set does not have; InputFileError naming the FK
 *   table whose Q0 is not the fit's
 */
export async function predictFitReplicas(
  set: FitReplicaSet,
  observable: Observable,
  member: number,
): Promise<FitPredictions> {
  const [predictions] = await predictFitReplicasForObservables(set, [observable], member);
  return predictions;
}

/**
 * {@link predictFitReplicas} for several observables at once, each member's model built once
 * for all of them (a report's every dataset): the same numbers as one call per observable.
 *
 * @returns one {@link FitPredictions} per observable, in order
 * @throws InvalidArgumentError for a member the set does not have; InputFileError naming the FK
 *   table whose Q0 is not the fit's
 */
export async function predictFitReplicasForObservables(
  set: FitReplicaSet,
  observables: readonly Observable[],
  member: number,
): Promise<FitPredictions[]> {
  const numbers = set.members.map((entry) => entry.member);
  if (member !== 0 && !numbers.includes(member)) {
    throw new InvalidArgumentError({
      argument: '--member',
      problem: `fit ${set.fit} (${set.source}) has members 0 (the mean) and ${numbers.join(', ')}; got ${member}`,
    });
  }
  for (const observable of observables) checkQ0(set, observable);
  const grids = [
    ...new Set(
      observables.flatMap((observable) => observable.operands.flat()).map((table) => table.xGrid),
    ),
  ];
  const evaluated: { member: number; predictions: Float64Array }[][] = observables.map(() => []);
  for (const entry of set.members.filter(
    (candidate) => member === 0 || candidate.member === member,
  )) {
    const model = buildReplicaModel(entry.parameters, `replica_${entry.member}`);
    const values = new Map<Float64Array, Float64Array>();
    try {
      for (const grid of grids) values.set(grid, await replicaPdfAt(model, grid));
    } finally {
      model.dispose();
    }
    observables.forEach((observable, o) => {
      evaluated[o].push({
        member: entry.member,
        predictions: predictObservable(
          observable,
          (grid) => values.get(grid) ?? new Float64Array(),
        ),
      });
    });
  }
  return evaluated.map((members) => {
    if (member !== 0) return { predictions: members[0].predictions, members };
    const mean = new Float64Array(members[0].predictions.length);
    for (const { predictions } of members) {
      predictions.forEach((value, n) => {
        mean[n] += value / members.length;
      });
    }
    return { predictions: mean, members };
  });
}
