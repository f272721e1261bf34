import type { NpyData, NpyDtype } from './npy-array.js';

/** A numpy type string (`descr`) resolved: element type, bytes per element, byte order. */
export interface ResolvedDtype {
  readonly dtype: NpyDtype;
  readonly itemSize: number;
  readonly bigEndian: boolean;
}

const KINDS: Readonly<Partial<Record<string, NpyDtype>>> = {
  f8: 'float64',
  f4: 'float32',
  i8: 'int64',
  i4: 'int32',
  i2: 'int16',
  i1: 'int8',
  u8: 'uint64',
  u4: 'uint32',
  u2: 'uint16',
  u1: 'uint8',
  b1: 'bool',
};

/**
 * Resolves a numpy `descr` such as `<f8`, `>i4` or `|b1`; undefined for types partonfit does not
 * read (objects `|O`, strings, complex, half floats, structured types).
 */
export function resolveDtype(descr: string): ResolvedDtype | undefined {
  const match = /^([<>|=]?)([a-z]\d+)$/.exec(descr);
  if (match === null) return undefined;
  const [, order, kind] = match;
  const dtype = KINDS[kind];
  if (dtype === undefined) return undefined;
  return { dtype, itemSize: Number(kind.slice(1)), bigEndian: order === '>' };
}

/**
 * A typed array of `dtype` over `buffer` (whose length must be a multiple of the item size, and
 * whose bytes are in the machine's little-endian order).
 */
export function typedArrayOf(dtype: NpyDtype, buffer: ArrayBuffer): NpyData {
  switch (dtype) {
    case 'float64':
      return new Float64Array(buffer);
    case 'float32':
      return new Float32Array(buffer);
    case 'int64':
      return new BigInt64Array(buffer);
    case 'int32':
      return new Int32Array(buffer);
    case 'int16':
      return new Int16Array(buffer);
    case 'int8':
      return new Int8Array(buffer);
    case 'uint64':
      return new BigUint64Array(buffer);
    case 'uint32':
      return new Uint32Array(buffer);
    case 'uint16':
      return new Uint16Array(buffer);
    case 'uint8':
    case 'bool':
      return new Uint8Array(buffer);
  }
}
