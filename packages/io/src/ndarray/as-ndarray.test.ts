import { createMatrix, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../npy/parse-npy.js';
import { asNdarray, matrixAsNdarray, npyAsNdarray } from './as-ndarray.js';

describe('ndarray views', () => {
  it('should index a (data, flavour, x) array in C order and write through to the data', () => {
    const data = Float64Array.from({ length: 24 }, (_, i) => i);
    const view = asNdarray(data, [2, 3, 4]);
    expect(view.get(1, 2, 3)).toBe(23);
    expect(view.get(0, 1, 2)).toBe(6);
    view.set(1, 0, 1, -5);
    expect(data[13]).toBe(-5);
    expect(view.transpose(2, 1, 0).get(3, 2, 1)).toBe(23);
  });

  it('should reject data whose length does not match the shape', () => {
    expect(() => asNdarray(new Float32Array(10), [3, 3])).toThrow(ShapeError);
    expect(() => asNdarray(new Float32Array(10), [3, 3])).toThrow(
      'ndarray over 10 values: expected shape [10], got [3, 3]',
    );
    expect(() => asNdarray(new Float32Array(4), [-2, -2])).toThrow(ShapeError);
  });

  it('should view a core Matrix as (rows, columns) and share its storage', () => {
    const matrix = createMatrix(2, 3, Float64Array.from([1, 2, 3, 4, 5, 6]));
    const view = matrixAsNdarray(matrix);
    expect(view.shape).toEqual([2, 3]);
    expect(view.get(1, 0)).toBe(4);
    view.set(0, 2, 30);
    expect(matrix.data[2]).toBe(30);
  });

  it('should view an npy array with its shape', () => {
    const header = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }";
    const bytes = new Uint8Array(10 + 64 + 16);
    bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 64, 0]);
    bytes.set(new TextEncoder().encode(`${header}${' '.repeat(63 - header.length)}\n`), 10);
    bytes.set(new Uint8Array(Int32Array.of(7, 8, 9, 10).buffer), 74);
    const view = npyAsNdarray(parseNpy(bytes, { file: 'x.npy' }));
    expect(view.get(1, 0)).toBe(9);
  });
});
