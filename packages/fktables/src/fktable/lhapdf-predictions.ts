import { evolutionBasisXf, type LhapdfGrid } from '@partonfit/io';
import type { Observable } from './observable.js';
import { predictObservable } from './predict.js';

/**
 * The predictions of an observable from one member of an LHAPDF set, interpolated at the FK
 * tables' Q0 (`partonfit predict --pdf <set>` and the report's comparisons with a set).
 *
 * @returns `(data)`, and the Q0 used
 */
export function lhapdfMemberPredictions(
  member: LhapdfGrid,
  observable: Observable,
): { readonly q0: number; readonly predictions: Float64Array } {
  const q0 = observable.operands[0][0].q0;
  return {
    q0,
    predictions: predictObservable(observable, (xGrid) => evolutionBasisXf(member, xGrid, q0)),
  };
}
