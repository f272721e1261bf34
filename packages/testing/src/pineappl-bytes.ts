/**
 * PineAPPL FK-table files written byte by byte for the tests of the PineAPPL reader
 * (`@partonfit/io`) and of the FK tables made from it (`@partonfit/fktables`): the same table
 * in file version 0 (PineAPPL 0.5–0.8, `ImportOnlySubgridV2`) and file version 1 (PineAPPL 1.x,
 * `ImportSubgridV1`), each field laid out as bincode 1 writes it (little-endian, `u64` lengths,
 * `u32` enum variants, `u8` option tags). Independent of the reader: it shares no code with it.
 *
 * @packageDocumentation
 */

/** Little-endian bytes, appended field by field. */
export class ByteWriter {
  private readonly parts: number[] = [];
  private readonly scratch = new DataView(new ArrayBuffer(8));

  /** The bytes written so far. */
  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }

  /** The number of bytes written so far. */
  get length(): number {
    return this.parts.length;
  }

  private push(count: number): void {
    for (let k = 0; k < count; k++) this.parts.push(this.scratch.getUint8(k));
  }

  u8(value: number): this {
    this.parts.push(value & 0xff);
    return this;
  }

  u32(value: number): this {
    this.scratch.setUint32(0, value, true);
    this.push(4);
    return this;
  }

  i32(value: number): this {
    this.scratch.setInt32(0, value, true);
    this.push(4);
    return this;
  }

  u64(value: number): this {
    this.scratch.setBigUint64(0, BigInt(value), true);
    this.push(8);
    return this;
  }

  f64(value: number): this {
    this.scratch.setFloat64(0, value, true);
    this.push(8);
    return this;
  }

  /** A `String`: `u64` length and UTF-8 bytes. */
  string(value: string): this {
    const utf8 = new TextEncoder().encode(value);
    this.u64(utf8.length);
    for (const byte of utf8) this.parts.push(byte);
    return this;
  }

  /** A `Vec<f64>`. */
  f64s(values: readonly number[]): this {
    this.u64(values.length);
    for (const value of values) this.f64(value);
    return this;
  }

  /** A `Vec<usize>`. */
  u64s(values: readonly number[]): this {
    this.u64(values.length);
    for (const value of values) this.u64(value);
    return this;
  }
}

/** A small FK table: the content both file versions are written from. */
export interface FkTableSpec {
  /** Two convolutions (hadronic) or one (DIS, against a lepton in file version 0). */
  readonly hadronic: boolean;
  /** The evolution-basis particle ids of each channel: `[pid]` (DIS) or `[pid1, pid2]`. */
  readonly channels: readonly (readonly number[])[];
  /** The x nodes of every subgrid. */
  readonly xGrid: readonly number[];
  /** The factorisation scale² of the table. */
  readonly q02: number;
  /** Per bin: the left and right limit of its one dimension and its normalisation. */
  readonly bins: readonly { readonly limits: [number, number]; readonly normalization: number }[];
  /**
   * Per bin and channel (row-major), the values over `(x1)` (DIS) or `(x1, x2)` (hadronic,
   * row-major) — `undefined` for an empty subgrid.
   */
  readonly values: readonly (readonly number[] | undefined)[];
  /** Metadata besides what each version needs to describe its convolutions. */
  readonly metadata: readonly (readonly [string, string])[];
  /** File version 1: the scale² nodes (default `[q02]`); each repeats the subgrid's values. */
  readonly scaleNodes?: readonly number[];
  /** File version 1: the one order's exponents of αs, α, log ξR, log ξF, log ξA (default 0). */
  readonly order?: readonly [number, number, number, number, number];
  /** The particle of each hadron beam, PDG ids (default protons, 2212). */
  readonly particles?: readonly [number, number];
}

/** A DIS FK table: 2 bins, channels g, Σ, V3 (evolution ids 21, 100, 203), 4 x nodes. */
export const DIS_FK_TABLE: FkTableSpec = {
  hadronic: false,
  channels: [[21], [100], [203]],
  xGrid: [0.01, 0.1, 0.3, 0.7],
  q02: 1.65 ** 2,
  bins: [
    { limits: [0, 1], normalization: 1 },
    { limits: [1, 3], normalization: 2 },
  ],
  values: [[0, 2, 3, 0], [1, 0, 0, 4], undefined, [0, 0, 5, 6], undefined, [7, 0, 0, 0]],
  metadata: [
    ['fk_assumptions', 'Nf4Ind'],
    ['theory', '{"ID": 40000000}'],
  ],
};

/** A hadronic FK table: 1 bin, channels g g and Σ g, 3 x nodes. */
export const HADRONIC_FK_TABLE: FkTableSpec = {
  hadronic: true,
  channels: [
    [21, 21],
    [100, 21],
  ],
  xGrid: [0.05, 0.2, 0.6],
  q02: 1.65 ** 2,
  bins: [{ limits: [7, 8], normalization: 0.5 }],
  values: [
    [0, 0, 0, 0, 1, 2, 0, 3, 0],
    [9, 0, 0, 0, 0, 0, 0, 0, 8],
  ],
  metadata: [],
};

const PINEAPPL = [0x50, 0x69, 0x6e, 0x65, 0x41, 0x50, 0x50, 0x4c];

function header(writer: ByteWriter, version: number): void {
  for (const byte of PINEAPPL) writer.u8(byte);
  writer.u64(version);
}

/** The `Array3<SubgridEnum>` opening: ndarray format version 1, the shape and element count. */
function subgridArrayHeader(writer: ByteWriter, spec: FkTableSpec): void {
  writer.u8(1).u64(1).u64(spec.bins.length).u64(spec.channels.length);
  writer.u64(spec.bins.length * spec.channels.length);
}

/**
 * File version 0: `ImportOnlySubgridV2` subgrids (variant 6, empty ones `EmptySubgridV1`,
 * variant 5) whose `SparseArray3` holds one run per row, `lumi_id_types` `evol`, and for DIS a
 * lepton (`initial_state_2` 11, one x2 node 1).
 */
export function encodeFkTableV0(spec: FkTableSpec): Uint8Array {
  const writer = new ByteWriter();
  header(writer, 0);
  subgridArrayHeader(writer, spec);
  const nx = spec.xGrid.length;
  for (const values of spec.values) {
    if (values === undefined) {
      writer.u32(5);
      continue;
    }
    writer.u32(6).f64s(values);
    // runs along the longer inner axis: x1 for DIS (shape 1, nx, 1), x2 for hadronic (1, nx, nx)
    const rows = spec.hadronic ? nx : 1;
    writer.u64(rows + 1);
    for (let row = 0; row <= rows; row++) writer.u64(0).u64(row * nx);
    writer
      .u64(0)
      .u64(1)
      .u64(nx)
      .u64(spec.hadronic ? nx : 1);
    writer.u64(1).f64(spec.q02).f64(spec.q02); // mu2_grid: one (ren, fac)
    writer.f64s(spec.xGrid).f64s(spec.hadronic ? spec.xGrid : [1]);
  }
  writer.u64(spec.channels.length);
  for (const pids of spec.channels) {
    writer
      .u64(1)
      .i32(pids[0])
      .i32(spec.hadronic ? pids[1] : 11)
      .f64(1);
  }
  // BinLimits::Unequal: the left limits and the last right limit
  writer
    .u32(1)
    .f64s([...spec.bins.map(({ limits }) => limits[0]), spec.bins.at(-1)?.limits[1] ?? 0]);
  writer.u64(1).u32(0).u32(0).u32(0).u32(0); // orders: αs⁰ α⁰
  // subgrid_params: q2 bins, min, max, order; reweight; x bins, min, max, order
  writer.u64(40).f64(1e2).f64(1e8).u64(3).u8(1).u64(50).f64(2e-7).f64(1).u64(3);
  writer.u32(1); // MoreMembers::V2: remapper, key-value db
  writer.u8(1).f64s(spec.bins.map(({ normalization }) => normalization));
  writer.u64(spec.bins.length);
  for (const { limits } of spec.bins) writer.f64(limits[0]).f64(limits[1]);
  const metadata = [
    ...spec.metadata,
    ['lumi_id_types', 'evol'],
    ['initial_state_1', String(spec.particles?.[0] ?? 2212)],
    ['initial_state_2', spec.hadronic ? String(spec.particles?.[1] ?? 2212) : '11'],
  ].sort(([a], [b]) => (a < b ? -1 : 1));
  writer.u64(metadata.length);
  for (const [key, value] of metadata) writer.string(key).string(value);
  return writer.bytes();
}

/** A `PackedArray<f64>` of `dense` (row-major over `shape`): its runs of non-zero values. */
export function writePackedArray(
  writer: ByteWriter,
  dense: readonly number[],
  shape: readonly number[],
): void {
  const starts: number[] = [];
  const lengths: number[] = [];
  const entries: number[] = [];
  dense.forEach((value, index) => {
    if (value === 0) return;
    const last = starts.length - 1;
    if (last >= 0 && starts[last] + lengths[last] === index) lengths[last]++;
    else {
      starts.push(index);
      lengths.push(1);
    }
    entries.push(value);
  });
  writer.f64s(entries).u64s(starts).u64s(lengths).u64s(shape);
}

/** The smallest range of indices holding every non-zero value of `dense` along `axis`. */
function usedRange(
  dense: readonly number[],
  nx: number,
  axis: 0 | 1,
  hadronic: boolean,
): [number, number] {
  let first = nx;
  let end = 0;
  dense.forEach((value, index) => {
    if (value === 0) return;
    const node = hadronic ? (axis === 0 ? Math.floor(index / nx) : index % nx) : index;
    first = Math.min(first, node);
    end = Math.max(end, node + 1);
  });
  return [first, end];
}

/**
 * File version 1: `ImportSubgridV1` subgrids (variant 2; empty ones `EmptySubgridV1`, variant 1)
 * with kinematics `[Scale(0), X(0)(, X(1))]` and each subgrid's x nodes trimmed to where it is
 * non-zero, as PineAPPL 1.x's optimisation leaves them; scales `ren` NoScale, `fac` Scale(0),
 * `frg` NoScale; particle-id basis `Evol`; one `UnpolPDF` convolution of a proton per side.
 */
export function encodeFkTableV1(spec: FkTableSpec): Uint8Array {
  const writer = new ByteWriter();
  header(writer, 1);
  subgridArrayHeader(writer, spec);
  const nx = spec.xGrid.length;
  for (const values of spec.values) {
    if (values === undefined) {
      writer.u32(1);
      continue;
    }
    const [a0, a1] = usedRange(values, nx, 0, spec.hadronic);
    const [b0, b1] = spec.hadronic ? usedRange(values, nx, 1, true) : [0, 1];
    const scales = spec.scaleNodes ?? [spec.q02];
    const trimmed: number[] = [];
    for (let node = 0; node < scales.length; node++) {
      for (let i = a0; i < a1; i++) {
        for (let j = b0; j < b1; j++) {
          trimmed.push(spec.hadronic ? (values[i * nx + j] ?? 0) : (values[i] ?? 0));
        }
      }
    }
    const shape = spec.hadronic ? [scales.length, a1 - a0, b1 - b0] : [scales.length, a1 - a0];
    writer.u32(2);
    writePackedArray(writer, trimmed, shape);
    writer.u64(shape.length).f64s(scales).f64s(spec.xGrid.slice(a0, a1));
    if (spec.hadronic) writer.f64s(spec.xGrid.slice(b0, b1));
  }
  // BinsWithFillLimits: bins (limits per dimension, normalisation), fill limits
  writer.u64(spec.bins.length);
  for (const { limits, normalization } of spec.bins) {
    writer.u64(1).f64(limits[0]).f64(limits[1]).f64(normalization);
  }
  writer.f64s(spec.bins.length === 0 ? [] : [...spec.bins.keys(), spec.bins.length]);
  writer.u64(1); // orders: one, by default αs⁰ α⁰ with no logs
  for (const power of spec.order ?? [0, 0, 0, 0, 0]) writer.u8(power);
  writer.u64(spec.channels.length);
  for (const pids of spec.channels) {
    writer.u64(1).u64(pids.length);
    for (const pid of pids) writer.i32(pid);
    writer.f64(1);
  }
  writer.u32(1); // PidBasis::Evol
  const sides = spec.hadronic ? 2 : 1;
  writer.u64(sides);
  // Conv { UnpolPDF, particle }
  for (let side = 0; side < sides; side++) writer.u32(0).i32(spec.particles?.[side] ?? 2212);
  // interps: the scale's and each x's interpolation (min, max, nodes, order, reweight, map, meth)
  writer.u64(1 + sides);
  writer.f64(1e2).f64(1e8).u64(40).u64(3).u32(1).u32(1).u32(0);
  for (let side = 0; side < sides; side++) {
    writer.f64(2e-7).f64(1).u64(50).u64(3).u32(0).u32(0).u32(0);
  }
  writer
    .u64(1 + sides)
    .u32(0)
    .u64(0); // kinematics: Scale(0), X(0)(, X(1))
  for (let side = 0; side < sides; side++) writer.u32(1).u64(side);
  writer.u32(0).u32(1).u64(0).u32(0); // scales: ren NoScale, fac Scale(0), frg NoScale
  const metadata = [...spec.metadata].sort(([a], [b]) => (a < b ? -1 : 1));
  writer.u64(metadata.length);
  for (const [key, value] of metadata) writer.string(key).string(value);
  writer.u32(0); // MoreMembers::V4
  writer.u64(0).u64(0); // Reference: no results, no functions
  return writer.bytes();
}
