import ndarray, { type NdArray } from 'ndarray';
import type { FkTable } from './fk-table.js';

/**
 * An ndarray view of an FK table's compact values (not copied), for research code that works
 * with ndarray/scijs: shape `(data, channel, x)` for DIS, `(data, channel, x1, x2)` for hadronic;
 * the channel axis follows `fkTable.channels`.
 */
export function fkTableAsNdarray(fkTable: FkTable): NdArray<Float64Array> {
  const nx = fkTable.xGrid.length;
  const head = [fkTable.ndata, fkTable.channels.length];
  return ndarray(fkTable.values, fkTable.hadronic ? [...head, nx, nx] : [...head, nx]);
}
