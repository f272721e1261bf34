import { InputFileError, UnsupportedInputError } from '@partonfit/core';
import { readInputBytes } from '../compressed/read-input.js';
import { BincodeReader } from './bincode-reader.js';
import { readSubgridArray } from './subgrid-array.js';
import { decodeLz4Frame, isLz4Frame } from './lz4-frame.js';
import { readGridV1 } from './grid-v1.js';
import { forEachPackedEntry, type PackedArray } from './packed-array.js';
import { forEachSparseEntry, readSparseArray3, type SparseArray3 } from './sparse-array3.js';

/**
 * PineAPPL grids (`.pineappl.lz4`, `.pineappl`): the file header and the bincode serialisation of
 * PineAPPL's `Grid` for file version 0 (the layout of PineAPPL 0.5 to 0.8) and file version 1
 * (PineAPPL 1.x), read into the same plain objects. What an FK table means is the business of
 * `@partonfit/fktables`.
 *
 * @packageDocumentation
 */

/** The 8 magic bytes that open an uncompressed PineAPPL file, before the `u64` file version. */
export const PINEAPPL_MAGIC = 'PineAPPL';

/** The file versions {@link parsePineapplGrid} reads: 0 (PineAPPL 0.5 to 0.8) and 1 (PineAPPL 1.x). */
export const SUPPORTED_PINEAPPL_VERSIONS: readonly number[] = [0, 1];

/**
 * One term of a channel: parton `pid1` of the first convolution, `pid2` of the second. A file
 * version 1 grid with a single convolution (DIS) has `pid2` 0.
 */
export interface PineapplChannelEntry {
  readonly pid1: number;
  readonly pid2: number;
  readonly factor: number;
}

/** A perturbative order: the exponents of αs, α, log ξR, log ξF and log ξA (0 in file version 0). */
export interface PineapplOrder {
  readonly alphas: number;
  readonly alpha: number;
  readonly logxir: number;
  readonly logxif: number;
  readonly logxia: number;
}

/**
 * The renormalisation and factorisation scales (squared, GeV²) of one scale node; `undefined`
 * where a file version 1 grid defines no such scale (`ScaleFuncForm::NoScale`: FK tables of
 * PineAPPL 1.x have their renormalisation scale burnt in).
 */
export interface PineapplMu2 {
  readonly ren: number | undefined;
  readonly fac: number | undefined;
}

/** What a convolution of a file version 1 grid convolves with, and the hadron's PDG id. */
export interface PineapplConvolution {
  readonly type: 'UnpolPDF' | 'PolPDF' | 'UnpolFF' | 'PolFF';
  readonly pid: number;
}

/**
 * An imported subgrid (`ImportOnlySubgridV1`/`V2`, the kind FK tables hold): values on
 * `(mu2, x1, x2)` nodes. V1 stores one scale Q² for both; it is read as `ren = fac = Q²`.
 */
export interface PineapplImportOnlySubgrid {
  readonly type: 'ImportOnlySubgridV1' | 'ImportOnlySubgridV2';
  /** The values, shape `(mu2, x1, x2)`. */
  readonly array: SparseArray3;
  /** The scale nodes, shape `(mu2)`. */
  readonly mu2Grid: readonly PineapplMu2[];
  /** The x nodes of the first convolution, shape `(x1)`. */
  readonly x1Grid: Float64Array;
  /** The x nodes of the second convolution, shape `(x2)`. */
  readonly x2Grid: Float64Array;
}

/**
 * An imported subgrid of file version 1 (`ImportSubgridV1`), its kinematic dimensions brought into
 * the order `(mu2, x1, x2)`: `mu2` runs over the combinations of its scale nodes, a grid with a
 * single convolution (DIS) has the one node x2 = 1.
 */
export interface PineapplImportSubgridV1 {
  readonly type: 'ImportSubgridV1';
  /** The values, shape `(mu2, x1, x2)`. */
  readonly array: PackedArray;
  /** The scale nodes, shape `(mu2)`. */
  readonly mu2Grid: readonly PineapplMu2[];
  /** The x nodes of the first convolution, shape `(x1)`. */
  readonly x1Grid: Float64Array;
  /** The x nodes of the second convolution, shape `(x2)`. */
  readonly x2Grid: Float64Array;
}

/** An imported subgrid, the kind FK tables hold, of either file version. */
export type PineapplImportedSubgrid = PineapplImportOnlySubgrid | PineapplImportSubgridV1;

/** A subgrid whose content is not kept: empty, or an interpolation grid before evolution. */
export interface PineapplOtherSubgrid {
  readonly type:
    | 'EmptySubgridV1'
    | 'LagrangeSubgridV1'
    | 'NtupleSubgridV1'
    | 'LagrangeSparseSubgridV1'
    | 'LagrangeSubgridV2'
    | 'InterpSubgridV1';
}

/** One subgrid of a grid. */
export type PineapplSubgrid = PineapplImportedSubgrid | PineapplOtherSubgrid;

/** The bin limits of a grid: `bins` equal bins in [left, right], or explicit limits. */
export type PineapplBinLimits =
  | { readonly kind: 'equal'; readonly left: number; readonly right: number; readonly bins: number }
  | { readonly kind: 'unequal'; readonly limits: Float64Array };

/** The bin remapper: per-bin normalisations and multi-dimensional limits. */
export interface PineapplBinRemapper {
  /** Shape `(bin)`. */
  readonly normalizations: Float64Array;
  /** Shape `(bin, dimension, 2)`: left and right limit of each dimension of each bin. */
  readonly limits: Float64Array;
}

/** A PineAPPL grid as stored in its file. */
export interface PineapplGrid {
  /** The file it was read from. */
  readonly file: string;
  /** The file-format version of the header (0 or 1). */
  readonly fileVersion: number;
  /** The shape of the subgrid array, `(order, bin, channel)`. */
  readonly subgridShape: readonly [number, number, number];
  /** The subgrids, row-major in `(order, bin, channel)`. */
  readonly subgrids: readonly PineapplSubgrid[];
  /** The channels (luminosity entries), shape `(channel)`, each a sum of terms. */
  readonly channels: readonly (readonly PineapplChannelEntry[])[];
  /** The bin limits. */
  readonly binLimits: PineapplBinLimits;
  /** The perturbative orders, shape `(order)`. */
  readonly orders: readonly PineapplOrder[];
  /** The bin remapper, when the grid has one. */
  readonly remapper: PineapplBinRemapper | undefined;
  /** The key–value metadata (`lumi_id_types`, `initial_state_1`, `theory`, …). */
  readonly metadata: ReadonlyMap<string, string>;
  /** File version 1: the convolutions, one (DIS) or two (hadronic); version 0 keeps them in the metadata. */
  readonly convolutions?: readonly PineapplConvolution[];
  /** File version 1: the basis the channels' particle ids are in; version 0 says it in `lumi_id_types`. */
  readonly pidBasis?: 'Pdg' | 'Evol';
}

const SUBGRID_TYPES = [
  'LagrangeSubgridV1',
  'NtupleSubgridV1',
  'LagrangeSparseSubgridV1',
  'LagrangeSubgridV2',
  'ImportOnlySubgridV1',
  'EmptySubgridV1',
  'ImportOnlySubgridV2',
] as const;

/** Skips an `Option<Array3<f64>>` (ndarray's serde form: version byte, shape, data). */
function skipOptionalArray3(reader: BincodeReader, key: string): void {
  if (!reader.option(key)) return;
  const version = reader.u8(`${key}.v`);
  if (version !== 1) throw reader.error(`${key}.v`, `unknown ndarray format version ${version}`);
  const size = reader.u64(`${key}.dim`) * reader.u64(`${key}.dim`) * reader.u64(`${key}.dim`);
  const values = reader.f64Vec(`${key}.data`);
  if (values.length !== size) {
    throw reader.error(`${key}.data`, `${values.length} values for a shape of ${size}`);
  }
}

function skip(reader: BincodeReader, key: string, fields: string): void {
  for (const field of fields) {
    if (field === 'u') reader.u64(key);
    else if (field === 'f') reader.f64(key);
    else reader.bool(key);
  }
}

function readSubgrid(reader: BincodeReader, key: string): PineapplSubgrid {
  const type = SUBGRID_TYPES[reader.variant(`${key} (subgrid type)`, SUBGRID_TYPES.length)];
  switch (type) {
    case 'ImportOnlySubgridV1':
    case 'ImportOnlySubgridV2': {
      const array = readSparseArray3(reader, `${key}.array`);
      let mu2Grid: PineapplMu2[];
      if (type === 'ImportOnlySubgridV1') {
        mu2Grid = Array.from(reader.f64Vec(`${key}.q2_grid`), (q2) => ({ ren: q2, fac: q2 }));
      } else {
        mu2Grid = reader.vec(`${key}.mu2_grid`, 16, () => ({
          ren: reader.f64(`${key}.mu2_grid`),
          fac: reader.f64(`${key}.mu2_grid`),
        }));
      }
      const x1Grid = reader.f64Vec(`${key}.x1_grid`);
      const x2Grid = reader.f64Vec(`${key}.x2_grid`);
      const [d0, d1, d2] = array.dimensions;
      if (d0 !== mu2Grid.length || d1 !== x1Grid.length || d2 !== x2Grid.length) {
        throw reader.error(
          key,
          `array shape [${d0}, ${d1}, ${d2}] does not match the grids ` +
            `[${mu2Grid.length}, ${x1Grid.length}, ${x2Grid.length}] (mu2, x1, x2)`,
        );
      }
      return { type, array, mu2Grid, x1Grid, x2Grid };
    }
    case 'EmptySubgridV1':
      return { type };
    case 'NtupleSubgridV1':
      reader.vec(`${key}.ntuples`, 32, () => {
        skip(reader, `${key}.ntuples`, 'ffff');
      });
      return { type };
    case 'LagrangeSubgridV1':
      skipOptionalArray3(reader, `${key}.grid`);
      skip(reader, key, 'uuuuuubffff');
      return { type };
    case 'LagrangeSparseSubgridV1':
      readSparseArray3(reader, `${key}.array`);
      skip(reader, key, 'uuuubffff');
      return { type };
    case 'LagrangeSubgridV2':
      skipOptionalArray3(reader, `${key}.grid`);
      skip(reader, key, 'uuuuuuuubbfffffff');
      return { type };
  }
}

function readBinLimits(reader: BincodeReader): PineapplBinLimits {
  if (reader.variant('bin_limits', 2) === 0) {
    return {
      kind: 'equal',
      left: reader.f64('bin_limits.left'),
      right: reader.f64('bin_limits.right'),
      bins: reader.u64('bin_limits.bins'),
    };
  }
  return { kind: 'unequal', limits: reader.f64Vec('bin_limits.limits') };
}

function readRemapper(reader: BincodeReader): PineapplBinRemapper | undefined {
  if (!reader.option('remapper')) return undefined;
  const normalizations = reader.f64Vec('remapper.normalizations');
  const pairs = reader.length('remapper.limits', 16);
  const limits = new Float64Array(2 * pairs);
  for (let index = 0; index < limits.length; index++) limits[index] = reader.f64('remapper.limits');
  if (normalizations.length === 0 || pairs % normalizations.length !== 0) {
    throw reader.error(
      'remapper',
      `${pairs} limits do not divide into ${normalizations.length} bins`,
    );
  }
  return { normalizations, limits };
}

function readMetadata(reader: BincodeReader): Map<string, string> {
  const metadata = new Map<string, string>();
  const count = reader.length('key_value_db', 16);
  for (let index = 0; index < count; index++) {
    const key = reader.string('key_value_db');
    metadata.set(key, reader.string(`key_value_db.${key}`));
  }
  return metadata;
}

/** The number of bins the limits describe. */
export function pineapplBinCount(limits: PineapplBinLimits): number {
  return limits.kind === 'equal' ? limits.bins : Math.max(0, limits.limits.length - 1);
}

/**
 * The normalisation of each bin, shape `(bin)`, as PineAPPL's `BinInfo::normalizations`: the
 * remapper's normalisations when the grid has a remapper, else the widths of the bin limits.
 */
export function pineapplBinNormalizations(grid: PineapplGrid): Float64Array {
  if (grid.remapper !== undefined) return grid.remapper.normalizations.slice();
  const limits = grid.binLimits;
  const bins = pineapplBinCount(limits);
  const widths = new Float64Array(bins);
  for (let bin = 0; bin < bins; bin++) {
    widths[bin] =
      limits.kind === 'equal'
        ? (limits.right - limits.left) / limits.bins
        : limits.limits[bin + 1] - limits.limits[bin];
  }
  return widths;
}

function readGrid(reader: BincodeReader, file: string, fileVersion: number): PineapplGrid {
  const { shape: subgridShape, subgrids: subgrids } = readSubgridArray(reader, readSubgrid);
  const channels = reader.vec('channels', 8, (channel) =>
    reader.vec(`channels[${channel}]`, 16, () => ({
      pid1: reader.i32(`channels[${channel}]`),
      pid2: reader.i32(`channels[${channel}]`),
      factor: reader.f64(`channels[${channel}]`),
    })),
  );
  const binLimits = readBinLimits(reader);
  const orders = reader.vec('orders', 16, () => ({
    alphas: reader.u32('orders'),
    alpha: reader.u32('orders'),
    logxir: reader.u32('orders'),
    logxif: reader.u32('orders'),
    logxia: 0,
  }));
  skip(reader, 'subgrid_params', 'uffubuffu');
  const moreMembers = reader.variant('more_members', 3);
  let remapper: PineapplBinRemapper | undefined;
  let metadata = new Map<string, string>();
  if (moreMembers > 0) {
    remapper = readRemapper(reader);
    metadata = readMetadata(reader);
    if (moreMembers === 2) readSubgrid(reader, 'subgrid_template');
  }
  if (reader.remaining !== 0) {
    throw reader.error('Grid', `${reader.remaining} bytes follow the end of the grid`);
  }
  return {
    file,
    fileVersion,
    subgridShape,
    subgrids,
    channels,
    binLimits,
    orders,
    remapper,
    metadata,
  };
}

function checkShapes(grid: PineapplGrid): void {
  const [orders, bins, channels] = grid.subgridShape;
  const problem = (key: string, text: string): InputFileError =>
    new InputFileError({ file: grid.file, key, problem: text });
  if (orders !== grid.orders.length) {
    throw problem('orders', `${grid.orders.length} orders, the subgrids have ${orders}`);
  }
  if (channels !== grid.channels.length) {
    throw problem('channels', `${grid.channels.length} channels, the subgrids have ${channels}`);
  }
  const limitBins = pineapplBinCount(grid.binLimits);
  if (limitBins !== bins)
    throw problem('bin_limits', `${limitBins} bins, the subgrids have ${bins}`);
  if (grid.remapper !== undefined && grid.remapper.normalizations.length !== bins) {
    throw problem(
      'remapper',
      `${grid.remapper.normalizations.length} normalisations, the subgrids have ${bins} bins`,
    );
  }
}

/**
 * Parses a PineAPPL grid from the bytes of its file: an LZ4 frame (`.pineappl.lz4`) or the
 * uncompressed form, which opens with `PineAPPL` and the `u64` file version. File versions 0 (the
 * format of PineAPPL 0.5 to 0.8) and 1 (PineAPPL 1.x) are read; the subgrid types of every
 * PineAPPL 0.x and 1.x are known.
 *
 * @param bytes - the file's content
 * @param options.file - the file it came from, for error messages
 * @throws UnsupportedInputError - naming the file and the version, for another file version;
 *   for a version 1 grid with more than two convolutions or a scale no subgrid can give
 * @throws InputFileError - naming the file, for a truncated or corrupt LZ4 frame, a missing
 *   `PineAPPL` magic, a truncated grid, a corrupt length, an unknown variant, inconsistent shapes
 *   or bytes after the grid
 */
export function parsePineapplGrid(bytes: Uint8Array, options: { file: string }): PineapplGrid {
  const { file } = options;
  const plain = isLz4Frame(bytes) ? decodeLz4Frame(bytes, file) : bytes;
  const magic = new TextDecoder().decode(plain.subarray(0, PINEAPPL_MAGIC.length));
  if (plain.length < 16 || magic !== PINEAPPL_MAGIC) {
    throw new InputFileError({
      file,
      key: 'header',
      problem:
        `not a PineAPPL grid: ${isLz4Frame(bytes) ? 'the decompressed data does' : 'the file does'}` +
        ` not start with "${PINEAPPL_MAGIC}" and a file version`,
    });
  }
  const reader = new BincodeReader(plain, file, PINEAPPL_MAGIC.length);
  const version = reader.u64('header.version');
  if (!SUPPORTED_PINEAPPL_VERSIONS.includes(version)) {
    throw new UnsupportedInputError({
      file,
      key: 'header',
      feature: `PineAPPL file version ${version}`,
      problem: 'partonfit reads file versions 0 (PineAPPL 0.5 to 0.8) and 1 (PineAPPL 1.x)',
    });
  }
  const grid = version === 1 ? readGridV1(reader, file) : readGrid(reader, file, version);
  checkShapes(grid);
  return grid;
}

/**
 * Reads a PineAPPL grid file (see {@link parsePineapplGrid}); like every input, it may also come
 * gzip-compressed or as the single member of a tar archive.
 *
 * @throws InputFileError - naming the file when it cannot be read, and as
 *   {@link parsePineapplGrid}
 */
export async function readPineapplGrid(file: string): Promise<PineapplGrid> {
  return parsePineapplGrid((await readInputBytes(file)).bytes, { file });
}

/**
 * Whether `bytes` look like a PineAPPL grid file: an LZ4 frame, or the uncompressed form that
 * opens with {@link PINEAPPL_MAGIC}.
 */
export function isPineapplGrid(bytes: Uint8Array): boolean {
  if (isLz4Frame(bytes)) return true;
  const magic = bytes.subarray(0, PINEAPPL_MAGIC.length);
  return new TextDecoder().decode(magic) === PINEAPPL_MAGIC;
}

/**
 * Calls `visit(i0, i1, i2, value)` for every stored value of an imported subgrid of either file
 * version, at its indices `(mu2, x1, x2)` (stored zeros too).
 */
export function forEachSubgridValue(
  subgrid: PineapplImportedSubgrid,
  visit: (i0: number, i1: number, i2: number, value: number) => void,
): void {
  if (subgrid.type === 'ImportSubgridV1') {
    forEachPackedEntry(subgrid.array, (index, value) => {
      visit(index[0], index[1], index[2], value);
    });
  } else {
    forEachSparseEntry(subgrid.array, visit);
  }
}

/**
 * The values of an imported subgrid as a dense array of shape `(mu2, x1, x2)`, row-major.
 */
export function importedSubgridValues(subgrid: PineapplImportedSubgrid): Float64Array {
  const d1 = subgrid.x1Grid.length;
  const d2 = subgrid.x2Grid.length;
  const values = new Float64Array(subgrid.mu2Grid.length * d1 * d2);
  forEachSubgridValue(subgrid, (i0, i1, i2, value) => {
    values[(i0 * d1 + i1) * d2 + i2] = value;
  });
  return values;
}
