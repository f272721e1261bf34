import { InvalidArgumentError } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import { pointsCovariance, type PointsCovariance } from '../loss/fold-covariance.js';

/** A fold's data: the held-out partition's points and the fitted ones. */
export interface FoldData {
  readonly heldOut: PointsCovariance;
  readonly fitted: PointsCovariance;
}

/**
 * Each fold's held-out and fitted points with their experimental covariance, from a scan's fit
 * inputs (which must have folds).
 *
 * @throws InvalidArgumentError when the inputs have no folds
 */
export function foldData(inputs: FitInputs): FoldData[] {
  const { folds, ndata, centralData } = inputs;
  if (folds === undefined) {
    throw new InvalidArgumentError({ argument: 'inputs', problem: 'the fit inputs have no folds' });
  }
  const count = folds.heldOut.length / ndata;
  return Array.from({ length: count }, (_, k) => {
    const heldOut = folds.heldOut.subarray(k * ndata, (k + 1) * ndata);
    return {
      heldOut: pointsCovariance(heldOut, centralData, folds.covariance),
      fitted: pointsCovariance(
        heldOut.map((held) => 1 - held),
        centralData,
        folds.covariance,
      ),
    };
  });
}
