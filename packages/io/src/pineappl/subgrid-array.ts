import type { BincodeReader } from './bincode-reader.js';

/** A grid's subgrids as stored: ndarray's `Array3` of (order, bin, channel), row-major. */
export interface SubgridArray<T> {
  readonly shape: [number, number, number];
  readonly subgrids: T[];
}

/**
 * Reads the `subgrids` field of a grid (of either file version): ndarray's serialisation of an
 * `Array3` (format version byte, three u64 dimensions, then the elements), each element read by
 * `readSubgrid` with its field name `subgrids[order, bin, channel]` for messages.
 *
 * @throws InputFileError - for an unknown ndarray format or an element count that is not the
 *   shape's
 */
export function readSubgridArray<T>(
  reader: BincodeReader,
  readSubgrid: (reader: BincodeReader, field: string) => T,
): SubgridArray<T> {
  const formatVersion = reader.u8('subgrids.v');
  if (formatVersion !== 1) {
    throw reader.error('subgrids.v', `unknown ndarray format version ${formatVersion}`);
  }
  const shape: [number, number, number] = [
    reader.u64('subgrids.dim'),
    reader.u64('subgrids.dim'),
    reader.u64('subgrids.dim'),
  ];
  const count = reader.length('subgrids.data', 4);
  if (count !== shape[0] * shape[1] * shape[2]) {
    throw reader.error(
      'subgrids.data',
      `${count} subgrids for a shape of [${shape.join(', ')}] (order, bin, channel)`,
    );
  }
  const subgrids: T[] = [];
  for (let index = 0; index < count; index++) {
    const order = Math.floor(index / (shape[1] * shape[2]));
    const bin = Math.floor(index / shape[2]) % shape[1];
    const channel = index % shape[2];
    subgrids.push(readSubgrid(reader, `subgrids[${order}, ${bin}, ${channel}]`));
  }
  return { shape, subgrids };
}
