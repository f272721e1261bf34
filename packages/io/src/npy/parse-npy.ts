import { InputFileError } from '@partonfit/core';
import { resolveDtype, typedArrayOf } from './dtype.js';
import type { NpyArray, NpySource } from './npy-array.js';
import { parsePythonLiteral, type PythonLiteral } from './python-literal.js';

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

interface NpyHeader {
  readonly descr: string;
  readonly fortranOrder: boolean;
  readonly shape: readonly number[];
  /** The byte offset at which the data starts. */
  readonly dataOffset: number;
}

function npyError(source: NpySource, problem: string, cause?: unknown): InputFileError {
  return new InputFileError({ file: source.file, key: source.key, problem, cause });
}

function readHeader(bytes: Uint8Array, source: NpySource): NpyHeader {
  if (bytes.length < 10 || MAGIC.some((byte, i) => bytes[i] !== byte)) {
    throw npyError(source, 'not an .npy array: it does not start with \\x93NUMPY');
  }
  const major = bytes[6];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLength: number;
  let headerStart: number;
  if (major === 1) {
    headerLength = view.getUint16(8, true);
    headerStart = 10;
  } else if ((major === 2 || major === 3) && bytes.length >= 12) {
    headerLength = view.getUint32(8, true);
    headerStart = 12;
  } else {
    throw npyError(source, `unsupported .npy format version ${major}.${bytes[7]}`);
  }
  const dataOffset = headerStart + headerLength;
  if (dataOffset > bytes.length) {
    throw npyError(
      source,
      `truncated .npy header: needs ${headerLength} bytes, only ${bytes.length - headerStart} present`,
    );
  }
  const headerBytes = bytes.subarray(headerStart, dataOffset);
  const text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(headerBytes).trim();
  let literal: PythonLiteral;
  try {
    literal = parsePythonLiteral(text);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw npyError(source, `unparsable .npy header (${reason}): ${text}`, cause);
  }
  return { ...headerFields(literal, text, source), dataOffset };
}

function headerFields(
  literal: PythonLiteral,
  text: string,
  source: NpySource,
): Omit<NpyHeader, 'dataOffset'> {
  if (typeof literal !== 'object' || literal === null || Array.isArray(literal)) {
    throw npyError(source, `unparsable .npy header (not a dict): ${text}`);
  }
  const {
    descr,
    fortran_order: fortranOrder,
    shape,
  } = literal as Record<string, PythonLiteral | undefined>;
  if (Array.isArray(descr)) {
    throw npyError(source, `unsupported dtype: structured type ${JSON.stringify(descr)}`);
  }
  if (typeof descr !== 'string') {
    throw npyError(source, `unparsable .npy header (no 'descr' string): ${text}`);
  }
  if (typeof fortranOrder !== 'boolean') {
    throw npyError(source, `unparsable .npy header ('fortran_order' is not True/False): ${text}`);
  }
  const validShape =
    Array.isArray(shape) &&
    shape.every((size) => typeof size === 'number' && Number.isSafeInteger(size) && size >= 0);
  if (!validShape) {
    throw npyError(source, `unparsable .npy header ('shape' is not a tuple of sizes): ${text}`);
  }
  return { descr, fortranOrder, shape: shape as number[] };
}

/** Reverses the bytes of each `itemSize`-byte item of `bytes` in place (byte-order swap). */
function swapBytes(bytes: Uint8Array, itemSize: number): void {
  for (let start = 0; start < bytes.length; start += itemSize) {
    bytes.subarray(start, start + itemSize).reverse();
  }
}

/** An unsigned integer view whose elements are whole items of `itemSize` bytes (or halves). */
function itemWords(buffer: ArrayBuffer, itemSize: number): Uint8Array | Uint16Array | Uint32Array {
  if (itemSize === 2) return new Uint16Array(buffer);
  if (itemSize >= 4) return new Uint32Array(buffer);
  return new Uint8Array(buffer);
}

/**
 * Reorders items stored in Fortran (column-major) order into C (row-major) order, copying raw
 * bits so that nothing (not even NaN payloads) is changed.
 */
function fortranToC(source: ArrayBuffer, shape: readonly number[], itemSize: number): ArrayBuffer {
  const target = new ArrayBuffer(source.byteLength);
  const from = itemWords(source, itemSize);
  const to = itemWords(target, itemSize);
  const words = Math.max(1, itemSize / 4);
  const rank = shape.length;
  const cStrides = new Array<number>(rank);
  let stride = 1;
  for (let axis = rank - 1; axis >= 0; axis--) {
    cStrides[axis] = stride;
    stride *= shape[axis];
  }
  const count = stride;
  const index = new Array<number>(rank).fill(0);
  let cOffset = 0;
  for (let fOffset = 0; fOffset < count; fOffset++) {
    for (let word = 0; word < words; word++)
      to[cOffset * words + word] = from[fOffset * words + word];
    // advance the Fortran multi-index: first axis fastest
    for (let axis = 0; axis < rank; axis++) {
      index[axis]++;
      cOffset += cStrides[axis];
      if (index[axis] < shape[axis]) break;
      cOffset -= cStrides[axis] * shape[axis];
      index[axis] = 0;
    }
  }
  return target;
}

/**
 * Parses the bytes of a `.npy` file (format versions 1, 2 and 3).
 *
 * The data is copied into a fresh, aligned buffer in the machine's byte order; big-endian types
 * (`>f8`, …) are converted and arrays stored in Fortran order are transposed into C order, so
 * {@link NpyArray.data} is always row-major.
 *
 * @param bytes - the whole `.npy` content
 * @param options - the file (and npz key) named in errors
 * @throws InputFileError (with `file` and `key`) on a bad magic string, an unparsable header, an
 *   unsupported dtype (objects, strings, complex, half, structured) or a data length that is not
 *   product(shape) · itemsize (truncated or padded data)
 */
export function parseNpy(bytes: Uint8Array, options: NpySource): NpyArray {
  const header = readHeader(bytes, options);
  const resolved = resolveDtype(header.descr);
  if (resolved === undefined) {
    throw npyError(options, `unsupported dtype '${header.descr}'`);
  }
  const count = header.shape.reduce((product, size) => product * size, 1);
  const expectedBytes = count * resolved.itemSize;
  const dataBytes = bytes.length - header.dataOffset;
  if (dataBytes !== expectedBytes) {
    throw npyError(
      options,
      `${dataBytes < expectedBytes ? 'truncated data' : 'unexpected trailing data'}: shape [${header.shape.join(', ')}] of ${header.descr} needs ${expectedBytes} bytes, found ${dataBytes}`,
    );
  }
  const copy = new Uint8Array(bytes.subarray(header.dataOffset)); // a copy, also for a Buffer
  if (resolved.bigEndian && resolved.itemSize > 1) swapBytes(copy, resolved.itemSize);
  const buffer =
    header.fortranOrder && header.shape.length > 1
      ? fortranToC(copy.buffer, header.shape, resolved.itemSize)
      : copy.buffer;
  return { dtype: resolved.dtype, shape: header.shape, data: typedArrayOf(resolved.dtype, buffer) };
}
