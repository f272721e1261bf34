import type { BincodeReader } from './bincode-reader.js';

/**
 * PineAPPL's `SparseArray3<f64>`: a three-dimensional array `(d0, d1, d2)` stored as runs of
 * non-zero values along its longer inner axis. For every index i0 from `start` on and every index
 * m of the shorter inner axis, `indices` holds `[zerosLeft, offset]`: the run begins `zerosLeft`
 * places into the longer axis and its values are `entries[offset …]` up to the next run's offset.
 * When d1 > d2 the runs go along d1 (axis 1) and m indexes d2; otherwise the runs go along d2.
 */
export interface SparseArray3 {
  /** The stored values of all runs, in order. */
  readonly entries: Float64Array;
  /** `[zerosLeft, offset]` pairs flattened, shape `(rows · shorter + 1, 2)`. */
  readonly indices: Float64Array;
  /** The first index along axis 0 that has runs. */
  readonly start: number;
  /** The array's shape `(d0, d1, d2)`. */
  readonly dimensions: readonly [number, number, number];
}

/**
 * Reads a `SparseArray3<f64>` (`entries`, `indices`, `start`, `dimensions`) and checks that its
 * runs lie inside its shape and cover exactly its entries.
 *
 * @throws InputFileError - naming `key`, for a truncated or inconsistent array
 */
export function readSparseArray3(reader: BincodeReader, key: string): SparseArray3 {
  const entries = reader.f64Vec(`${key}.entries`);
  const count = reader.length(`${key}.indices`, 16);
  const indices = new Float64Array(2 * count);
  for (let index = 0; index < 2 * count; index++) indices[index] = reader.u64(`${key}.indices`);
  const start = reader.u64(`${key}.start`);
  const dimensions: [number, number, number] = [
    reader.u64(`${key}.dimensions`),
    reader.u64(`${key}.dimensions`),
    reader.u64(`${key}.dimensions`),
  ];
  const array = { entries, indices, start, dimensions };
  const problem = sparseArrayProblem(array);
  if (problem !== undefined) throw reader.error(key, `inconsistent sparse array: ${problem}`);
  return array;
}

function runAxes(dimensions: readonly [number, number, number]): {
  shorter: number;
  longer: number;
} {
  const [, d1, d2] = dimensions;
  return d1 > d2 ? { shorter: d2, longer: d1 } : { shorter: d1, longer: d2 };
}

function sparseArrayProblem(array: SparseArray3): string | undefined {
  const { entries, indices, start, dimensions } = array;
  const pairs = indices.length / 2;
  const { shorter, longer } = runAxes(dimensions);
  if (pairs === 0) return 'no indices';
  if (shorter === 0)
    return pairs === 1 && entries.length === 0 ? undefined : 'an empty shape with runs';
  if ((pairs - 1) % shorter !== 0)
    return `${pairs} index pairs do not fill whole rows of ${shorter}`;
  const rows = (pairs - 1) / shorter;
  if (rows > 0 && start + rows > dimensions[0])
    return `rows ${start}…${start + rows - 1} exceed ${dimensions[0]}`;
  if (indices[1] !== 0) return 'the first run does not start at entry 0';
  if (indices[2 * (pairs - 1) + 1] !== entries.length) {
    return `the runs cover ${indices[2 * (pairs - 1) + 1]} entries, there are ${entries.length}`;
  }
  for (let pair = 0; pair + 1 < pairs; pair++) {
    const zerosLeft = indices[2 * pair];
    const run = indices[2 * pair + 3] - indices[2 * pair + 1];
    if (run < 0) return `run ${pair} has a negative length`;
    if (run > 0 && zerosLeft + run > longer) return `run ${pair} ends past ${longer}`;
  }
  return undefined;
}

/**
 * Calls `visit(i0, i1, i2, value)` for every stored value of `array` (zeros inside runs too).
 */
export function forEachSparseEntry(
  array: SparseArray3,
  visit: (i0: number, i1: number, i2: number, value: number) => void,
): void {
  const { entries, indices, start, dimensions } = array;
  const { shorter } = runAxes(dimensions);
  const alongAxis1 = dimensions[1] > dimensions[2];
  const pairs = indices.length / 2;
  for (let pair = 0; pair + 1 < pairs; pair++) {
    const i0 = start + Math.floor(pair / shorter);
    const m = pair % shorter;
    const zerosLeft = indices[2 * pair];
    const first = indices[2 * pair + 1];
    const end = indices[2 * pair + 3];
    for (let entry = first; entry < end; entry++) {
      const k = zerosLeft + entry - first;
      if (alongAxis1) visit(i0, k, m, entries[entry]);
      else visit(i0, m, k, entries[entry]);
    }
  }
}
