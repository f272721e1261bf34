import type { BincodeReader } from './bincode-reader.js';

/**
 * PineAPPL 1.x's `PackedArray<f64>`: an n-dimensional row-major array stored as groups of
 * adjacent values. Group g holds `entries[Σ lengths[..g] …]` at the flat indices
 * `startIndices[g] …  startIndices[g] + lengths[g] − 1`; everything else is zero.
 */
export interface PackedArray {
  /** The stored values of all groups, in order. */
  readonly entries: Float64Array;
  /** The flat (row-major) index of each group's first value, ascending. */
  readonly startIndices: Float64Array;
  /** The number of values of each group. */
  readonly lengths: Float64Array;
  /** The array's shape. */
  readonly shape: readonly number[];
}

function u64Vec(reader: BincodeReader, key: string): Float64Array {
  const count = reader.length(key, 8);
  const values = new Float64Array(count);
  for (let index = 0; index < count; index++) values[index] = reader.u64(key);
  return values;
}

function packedArrayProblem(array: PackedArray): string | undefined {
  const { entries, startIndices, lengths, shape } = array;
  if (startIndices.length !== lengths.length) {
    return `${startIndices.length} start indices for ${lengths.length} group lengths`;
  }
  const size = shape.reduce((product, dimension) => product * dimension, 1);
  if (!Number.isSafeInteger(size)) return `a shape of ${size} values`;
  let end = 0;
  let stored = 0;
  for (let group = 0; group < lengths.length; group++) {
    const start = startIndices[group];
    if (group > 0 && start < end)
      return `group ${group} starts at ${start}, inside group ${group - 1}`;
    end = start + lengths[group];
    if (end > size) return `group ${group} ends at ${end}, past the ${size} values of the shape`;
    stored += lengths[group];
  }
  if (stored !== entries.length) {
    return `the groups cover ${stored} values, there are ${entries.length}`;
  }
  return undefined;
}

/**
 * Reads a `PackedArray<f64>` (`entries`, `start_indices`, `lengths`, `shape`) and checks that its
 * groups are ordered, lie inside its shape and cover exactly its entries.
 *
 * @throws InputFileError - naming `key`, for a truncated or inconsistent array
 */
export function readPackedArray(reader: BincodeReader, key: string): PackedArray {
  const entries = reader.f64Vec(`${key}.entries`);
  const startIndices = u64Vec(reader, `${key}.start_indices`);
  const lengths = u64Vec(reader, `${key}.lengths`);
  const shape = Array.from(u64Vec(reader, `${key}.shape`));
  const array = { entries, startIndices, lengths, shape };
  const problem = packedArrayProblem(array);
  if (problem !== undefined) throw reader.error(key, `inconsistent packed array: ${problem}`);
  return array;
}

/**
 * Calls `visit(index, value)` for every stored value of `array` (zeros inside groups too), with
 * `index` the value's multi-index. The same `index` array is reused between calls.
 */
export function forEachPackedEntry(
  array: PackedArray,
  visit: (index: readonly number[], value: number) => void,
): void {
  const { entries, startIndices, lengths, shape } = array;
  const index = new Array<number>(shape.length).fill(0);
  let entry = 0;
  for (let group = 0; group < lengths.length; group++) {
    for (let flat = startIndices[group]; flat < startIndices[group] + lengths[group]; flat++) {
      let rest = flat;
      for (let axis = shape.length - 1; axis >= 0; axis--) {
        index[axis] = rest % shape[axis];
        rest = Math.floor(rest / shape[axis]);
      }
      visit(index, entries[entry++]);
    }
  }
}
