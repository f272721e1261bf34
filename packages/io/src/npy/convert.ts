import { InputFileError } from '@partonfit/core';
import type { NpyArray, NpySource } from './npy-array.js';

/**
 * The values of a numeric array as float64, in C order. A float64 array's own data is returned
 * (not a copy); other types are converted, bool to 0 and 1.
 *
 * @throws InputFileError when an int64/uint64 value is not exactly representable (|v| > 2⁵³ − 1)
 */
export function npyAsFloat64(array: NpyArray, source: NpySource): Float64Array {
  const { data } = array;
  if (data instanceof Float64Array) return data;
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    return Float64Array.from(data, (value, index) => safeNumber(value, index, array, source));
  }
  return Float64Array.from(data);
}

/**
 * The values of an integer (or bool) array as plain numbers, in C order — for index lists such as
 * a bundle's `luminosity`.
 *
 * @throws InputFileError for a floating-point array, or an int64/uint64 value beyond 2⁵³ − 1
 */
export function npyAsIntegers(array: NpyArray, source: NpySource): number[] {
  const { data } = array;
  if (data instanceof Float64Array || data instanceof Float32Array) {
    throw new InputFileError({
      file: source.file,
      key: source.key,
      problem: `expected an integer array, got ${array.dtype}`,
    });
  }
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    return Array.from(data, (value, index) => safeNumber(value, index, array, source));
  }
  return Array.from(data);
}

function safeNumber(value: bigint, index: number, array: NpyArray, source: NpySource): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) {
    throw new InputFileError({
      file: source.file,
      key: source.key,
      problem: `${array.dtype} element ${index} = ${value} is beyond the exact integers of a float64`,
    });
  }
  return number;
}
