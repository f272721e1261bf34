import { ShapeError, type Matrix } from '@partonfit/core';
import ndarray from 'ndarray';
import type { NpyArray, NpyData } from '../npy/npy-array.js';

/**
 * A C-ordered (row-major) ndarray view over `data`, not a copy: `get`/`set` read and write
 * `data` itself. For research code that wants indexed, sliced and transposed access to the
 * arrays partonfit reads (FK tables, covariances, PDF grids) outside tfjs.
 *
 * @param data - the values, row-major
 * @param shape - the axes, e.g. [ndata, flavours, x] for a DIS FK table
 * @throws ShapeError when `data.length` is not the product of `shape`
 *
 * @example
 * ```ts
 * import { asNdarray } from '@partonfit/io';
 *
 * const ndata = 2;
 * const fkTable = new Float64Array(ndata * 9 * 18).map((_, i) => i);
 * const fk = asNdarray(fkTable, [ndata, 9, 18]); // (data, flavour, x)
 * console.log(fk.get(0, 2, 17)); // 53
 * ```
 */
export function asNdarray<D extends ndarray.Data>(
  data: D,
  shape: readonly number[],
): ndarray.NdArray<D> {
  const valid = shape.every((axis) => Number.isInteger(axis) && axis >= 0);
  if (!valid || shape.reduce((product, axis) => product * axis, 1) !== data.length) {
    throw new ShapeError({
      quantity: `ndarray over ${data.length} values`,
      expected: [data.length],
      actual: [...shape],
    });
  }
  return ndarray(data, [...shape]);
}

/** A (rows, columns) ndarray view over a core `Matrix`'s row-major data (not a copy). */
export function matrixAsNdarray(matrix: Matrix): ndarray.NdArray<Float64Array> {
  return asNdarray(matrix.data, [matrix.rows, matrix.columns]);
}

/** An ndarray view over an array read by `loadNpy`/`loadNpz`, with its shape (not a copy). */
export function npyAsNdarray(array: NpyArray): ndarray.NdArray<NpyData> {
  return asNdarray<NpyData>(array.data, array.shape);
}
