/** The element types partonfit reads from `.npy` files, by numpy name. */
export type NpyDtype =
  | 'float64'
  | 'float32'
  | 'int64'
  | 'int32'
  | 'int16'
  | 'int8'
  | 'uint64'
  | 'uint32'
  | 'uint16'
  | 'uint8'
  | 'bool';

/** The typed array that holds each {@link NpyDtype}: `bool` is a Uint8Array of 0 and 1. */
export type NpyData =
  | Float64Array<ArrayBuffer>
  | Float32Array<ArrayBuffer>
  | BigInt64Array<ArrayBuffer>
  | Int32Array<ArrayBuffer>
  | Int16Array<ArrayBuffer>
  | Int8Array<ArrayBuffer>
  | BigUint64Array<ArrayBuffer>
  | Uint32Array<ArrayBuffer>
  | Uint16Array<ArrayBuffer>
  | Uint8Array<ArrayBuffer>;

/**
 * An array read from a `.npy` file. `data` is always in C (row-major) order, whatever order the
 * file stored: element (i₀, …, iₖ) is `data[Σ iⱼ · strideⱼ]` with the last axis fastest.
 */
export interface NpyArray {
  readonly dtype: NpyDtype;
  /** The array's shape; `[]` for a 0-d (scalar) array, whose data holds one element. */
  readonly shape: readonly number[];
  readonly data: NpyData;
}

/** Where an array came from, for error messages: the file and, inside an npz, the array name. */
export interface NpySource {
  /** The `.npy` or `.npz` file. */
  readonly file: string;
  /** The array's zip member name inside an `.npz`, e.g. `fktable.npy`. */
  readonly key?: string | undefined;
}
