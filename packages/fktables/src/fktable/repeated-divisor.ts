import type { ObservableOperation } from '@partonfit/core';
import { valuesPerDataPoint, type FkTable } from './fk-table.js';

/**
 * The divisor of a RATIO observable as validphys reads it: a divisor that is one table whose
 * points after the first are all zero is an old-style normalisation table (apfelcomb's
 * `repetition_flag`: one total cross section meant to be repeated for every point), kept as its
 * first point only, so that it broadcasts over the numerator's points and is never cut.
 * Every other operand list is returned unchanged.
 *
 * @param operation - the observable's operation
 * @param operands - the operands, each a list of tables concatenated along data
 */
export function collapseRepeatedDivisor(
  operation: ObservableOperation,
  operands: readonly (readonly FkTable[])[],
): FkTable[][] {
  const copy = operands.map((operand) => [...operand]);
  const divisor = copy.at(-1);
  if (operation !== 'RATIO' || divisor?.length !== 1) return copy;
  const [table] = divisor;
  const width = valuesPerDataPoint(table);
  if (table.ndata < 2 || table.values.subarray(width).some((value) => value !== 0)) return copy;
  copy[copy.length - 1] = [{ ...table, ndata: 1, values: table.values.slice(0, width) }];
  return copy;
}
