import {
  EVOLUTION_BASIS,
  EVOLUTION_BASIS_SIZE,
  EVOLUTION_TO_FLAVOUR,
  flavourIndexOfPid,
  InputFileError,
  UnsupportedInputError,
} from '@partonfit/core';
import {
  forEachSubgridValue,
  pineapplBinNormalizations,
  readPineapplGrid,
  type PineapplGrid,
  type PineapplImportedSubgrid,
} from '@partonfit/io';
import type { FkTable, TheoryScaleRatios } from './fk-table.js';
import { BEYOND_FLOAT32, FLOAT32_MAX } from './float32-range.js';

/**
 * PineAPPL FK tables (`<name>.pineappl.lz4`, as pineko writes them for every current NNPDF
 * theory) turned into partonfit's {@link FkTable}, the model legacy tables have.
 *
 * @packageDocumentation
 */

/** How the channels of a PineAPPL grid name partons (its `lumi_id_types`). */
export type PineapplPidBasis = 'evol' | 'pdg_mc_ids';

/** A PineAPPL FK table: partonfit's model of it and what the grid says besides. */
export interface PineapplFkTable {
  /** The table in the evolution basis, as legacy tables are held (see {@link FkTable}). */
  readonly fkTable: FkTable;
  /** The grid's key–value metadata (`lumi_id_types`, `fk_assumptions`, `theory`, …). */
  readonly metadata: ReadonlyMap<string, string>;
  /** The bin normalisations the values were divided by, shape `(data)`. */
  readonly binNormalizations: Float64Array;
  /** The basis the grid's channels were given in (`pdg_mc_ids` channels are rotated). */
  readonly pidBasis: PineapplPidBasis;
  /** The PineAPPL file-format version. */
  readonly fileVersion: number;
}

/** Options of {@link pineapplFkTable}. */
export interface PineapplFkTableOptions {
  /** The table's name; default: the file name without `.pineappl.lz4` / `.pineappl`. */
  readonly name?: string;
}

const LEPTONS = new Set([11, 12, 13, 14, 15, 16]);
const PROTON = 2212;

/** The most values (float64) a table may hold: 2 GiB. */
const MAX_VALUES = 2 ** 28;

/** The table name a PineAPPL file name implies: `…/<NAME>.pineappl[.lz4]` → `<NAME>`. */
export function pineapplTableNameOfFile(file: string): string | undefined {
  const base = file.split(/[\\/]/).pop() ?? file;
  return /^(.+?)\.pineappl(?:\.lz4)?$/.exec(base)?.[1];
}

function notAnFkTable(grid: PineapplGrid, key: string, problem: string): UnsupportedInputError {
  return new UnsupportedInputError({
    file: grid.file,
    key,
    feature: 'a PineAPPL grid that is not an FK table',
    problem,
  });
}

function checkConvolutionType(grid: PineapplGrid, key: string, type: string): void {
  if (type !== 'UnpolPDF') {
    throw new UnsupportedInputError({
      file: grid.file,
      key,
      feature: `convolution type ${type}`,
      problem: 'partonfit convolves unpolarised PDFs (UnpolPDF) only',
    });
  }
}

/**
 * What one side of a grid convolves: a proton's PDF, an antiproton's (the proton's, charge
 * conjugated, as PineAPPL convolves it), or none (a lepton, or no second convolution).
 */
type Beam = 'proton' | 'antiproton' | 'none';

/**
 * The beam of a particle id: a lepton has no PDF; a proton or antiproton convolves the fitted
 * proton PDF.
 *
 * @throws UnsupportedInputError for any other hadron (a neutron, a nucleus, a pion…): one PDF is
 *   fitted, the proton's, as validphys assumes
 */
function beamOf(grid: PineapplGrid, key: string, particle: string | number): Beam {
  const pid = Number(particle);
  if (!Number.isInteger(pid)) {
    throw new InputFileError({
      file: grid.file,
      key,
      problem: `expected a PDG id, got "${particle}"`,
    });
  }
  if (LEPTONS.has(Math.abs(pid))) return 'none';
  if (pid === PROTON) return 'proton';
  if (pid === -PROTON) return 'antiproton';
  throw new UnsupportedInputError({
    file: grid.file,
    key,
    feature: `a convolution with particle ${pid}`,
    problem: `partonfit fits the proton's PDF and convolves protons (${PROTON}) and antiprotons (${-PROTON}) only`,
  });
}

/**
 * The beam of each of the two convolutions: for file version 1, the grid's convolutions (one
 * for DIS, two for hadronic grids) and their particles; for version 0, `convolution_type_<i>`
 * (PineAPPL 0.8: `UnpolPDF` or `None`) and `convolution_particle_<i>` / `initial_state_<i>`
 * (PineAPPL's default is a proton).
 */
function beams(grid: PineapplGrid): [Beam, Beam] {
  if (grid.convolutions !== undefined) {
    const sides = grid.convolutions.map(({ type, pid }, index) => {
      checkConvolutionType(grid, `convolutions[${index}]`, type);
      return beamOf(grid, `convolutions[${index}].pid`, pid);
    });
    return [sides[0] ?? 'none', sides[1] ?? 'none'];
  }
  const side = (index: 1 | 2): Beam => {
    const type = grid.metadata.get(`convolution_type_${index}`);
    if (type === 'None') return 'none';
    if (type !== undefined) checkConvolutionType(grid, `convolution_type_${index}`, type);
    const particleKey = grid.metadata.has(`convolution_particle_${index}`)
      ? `convolution_particle_${index}`
      : `initial_state_${index}`;
    return beamOf(grid, particleKey, grid.metadata.get(particleKey) ?? String(PROTON));
  };
  return [side(1), side(2)];
}

/** Whether each evolution-basis flavour changes sign under charge conjugation (q ↔ q̄): the V's. */
const CHARGE_ODD = EVOLUTION_BASIS.map((flavour) => flavour.pid >= 200);

/**
 * The combination a side's parton id stands for in the proton's evolution basis: for an
 * antiproton the charge conjugate (its u is the proton's ū: every V-type component flips sign).
 */
function beamCombination(
  grid: PineapplGrid,
  basis: PineapplPidBasis,
  pid: number,
  key: string,
  beam: Beam,
): Float64Array {
  const combination = evolutionCombination(grid, basis, pid, key);
  return beam === 'antiproton'
    ? combination.map((weight, k) => (CHARGE_ODD[k] ? -weight : weight))
    : combination;
}

function pidBasisOf(grid: PineapplGrid): PineapplPidBasis {
  if (grid.pidBasis !== undefined) return grid.pidBasis === 'Evol' ? 'evol' : 'pdg_mc_ids';
  const basis = grid.metadata.get('lumi_id_types') ?? 'pdg_mc_ids';
  if (basis === 'evol' || basis === 'pdg_mc_ids') return basis;
  throw new UnsupportedInputError({
    file: grid.file,
    key: 'lumi_id_types',
    feature: `the particle-id basis "${basis}"`,
    problem: 'partonfit reads evol and pdg_mc_ids',
  });
}

/**
 * The evolution-basis combination a parton id stands for, shape `(flavour)`: a unit vector in
 * the evolution basis, or the row of {@link EVOLUTION_TO_FLAVOUR} of a flavour-basis parton
 * (PDG id; 0 is the gluon).
 */
function evolutionCombination(
  grid: PineapplGrid,
  basis: PineapplPidBasis,
  pid: number,
  key: string,
): Float64Array {
  const combination = new Float64Array(EVOLUTION_BASIS_SIZE);
  if (basis === 'evol') {
    const index = EVOLUTION_BASIS.findIndex((flavour) => flavour.pid === pid);
    if (index < 0) {
      throw new InputFileError({
        file: grid.file,
        key,
        problem: `${pid} is not an evolution-basis id (${EVOLUTION_BASIS.map((f) => f.pid).join(', ')})`,
      });
    }
    combination[index] = 1;
    return combination;
  }
  const row = flavourIndexOfPid(pid === 0 ? 21 : pid);
  if (row < 0) {
    throw new InputFileError({ file: grid.file, key, problem: `unknown parton PDG id ${pid}` });
  }
  const { columns, data } = EVOLUTION_TO_FLAVOUR;
  for (let k = 0; k < EVOLUTION_BASIS_SIZE; k++) combination[k] = data[row * columns + k];
  return combination;
}

/** Whether two x nodes are one, within PineAPPL's node tolerance (about 4096 units in the last place). */
function sameNode(a: number, b: number): boolean {
  return Math.abs(a - b) <= 4096 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b));
}

/** An imported subgrid of order 0 with its (bin, channel) and its x nodes' places in the x-grid. */
interface PlacedSubgrid {
  readonly bin: number;
  readonly channel: number;
  readonly subgrid: PineapplImportedSubgrid;
  /** For x1 and x2: the index in the x-grid of each node (0 for a side without a PDF). */
  readonly places: readonly [Int32Array, Int32Array];
}

/** The imported subgrids of order 0, checked to share one scale, and the x-grid they span. */
interface ScaleAndGrid {
  readonly subgrids: readonly PlacedSubgrid[];
  readonly muf2: number;
  readonly xGrid: Float64Array;
}

/**
 * The x-grid of an FK table: the union of the x nodes of its subgrids, ascending, as PineAPPL's
 * `FkTable::x_grid` (PineAPPL 1.x stores each subgrid's nodes trimmed to where it is non-zero).
 */
function unionGrid(grids: readonly Float64Array[]): Float64Array {
  const nodes = grids.flatMap((grid) => Array.from(grid)).sort((a, b) => a - b);
  const union: number[] = [];
  for (const node of nodes) {
    const last = union.at(-1);
    if (last === undefined || !sameNode(last, node)) union.push(node);
  }
  return Float64Array.from(union);
}

function importedSubgrids(grid: PineapplGrid, sides: readonly [boolean, boolean]): ScaleAndGrid {
  const [, bins, channels] = grid.subgridShape;
  const found: { bin: number; channel: number; subgrid: PineapplImportedSubgrid }[] = [];
  let muf2: number | undefined;
  for (let bin = 0; bin < bins; bin++) {
    for (let channel = 0; channel < channels; channel++) {
      const subgrid = grid.subgrids[bin * channels + channel];
      const key = `subgrids[0, ${bin}, ${channel}]`;
      if (subgrid.type === 'EmptySubgridV1') continue;
      if (
        subgrid.type !== 'ImportOnlySubgridV1' &&
        subgrid.type !== 'ImportOnlySubgridV2' &&
        subgrid.type !== 'ImportSubgridV1'
      ) {
        const article = /^[AEIOU]/.test(subgrid.type) ? 'an' : 'a';
        throw notAnFkTable(
          grid,
          key,
          `it holds ${article} ${subgrid.type}; evolve it (pineko) first`,
        );
      }
      if (subgrid.mu2Grid.length !== 1) {
        throw notAnFkTable(grid, key, `${subgrid.mu2Grid.length} scales, an FK table has one`);
      }
      const fac = subgrid.mu2Grid[0].fac;
      if (fac === undefined) throw notAnFkTable(grid, key, 'it has no factorisation scale');
      muf2 ??= fac;
      if (fac !== muf2) {
        throw notAnFkTable(grid, key, `factorisation scale² ${fac}, other subgrids have ${muf2}`);
      }
      const grids = [subgrid.x1Grid, subgrid.x2Grid] as const;
      for (const side of [0, 1] as const) {
        const nodes = grids[side];
        if (!sides[side] && nodes.length !== 1) {
          throw notAnFkTable(grid, key, `${nodes.length} x nodes for the lepton (x${side + 1})`);
        }
      }
      found.push({ bin, channel, subgrid });
    }
  }
  const xGrid = unionGrid(
    found.flatMap(({ subgrid }) =>
      [subgrid.x1Grid, subgrid.x2Grid].filter((_, side) => sides[side]),
    ),
  );
  if (muf2 === undefined || xGrid.length === 0) {
    throw new InputFileError({
      file: grid.file,
      key: 'subgrids',
      problem: 'every subgrid is empty',
    });
  }
  if (!(muf2 > 0) || !xGrid.every((x) => x > 0 && x <= 1)) {
    throw new InputFileError({
      file: grid.file,
      key: 'subgrids',
      problem: `invalid scale² ${muf2} or x nodes outside (0, 1]`,
    });
  }
  const place = (nodes: Float64Array, side: 0 | 1): Int32Array =>
    sides[side]
      ? Int32Array.from(nodes, (x) => xGrid.findIndex((node) => sameNode(node, x)))
      : new Int32Array(nodes.length);
  const subgrids = found.map((entry) => ({
    ...entry,
    places: [place(entry.subgrid.x1Grid, 0), place(entry.subgrid.x2Grid, 1)] as const,
  }));
  return { subgrids, muf2, xGrid };
}

/** Checks the grid is one FK table: one order, all exponents zero. */
function checkOrders(grid: PineapplGrid): void {
  const [order] = grid.orders;
  const trivial =
    grid.orders.length === 1 &&
    order.alphas === 0 &&
    order.alpha === 0 &&
    order.logxir === 0 &&
    order.logxif === 0 &&
    order.logxia === 0;
  if (!trivial) {
    const list = grid.orders.map((o) => `αs^${o.alphas} α^${o.alpha}`).join(', ');
    throw notAnFkTable(grid, 'orders', `it has the orders ${list}; an FK table has one, αs^0 α^0`);
  }
}

/**
 * Turns a PineAPPL grid (file version 0 or 1) that is an FK table into partonfit's model:
 * x-grid (the union of the subgrids' x nodes, as PineAPPL's `FkTable::x_grid`), Q0 (the square root of the single factorisation scale), the channels in the
 * evolution basis (`pdg_mc_ids` channels rotated with {@link EVOLUTION_TO_FLAVOUR}; each channel
 * term's factor multiplied in), and values divided by the bin normalisations and by x (by x1·x2
 * for hadronic tables), since PineAPPL convolves f where partonfit convolves x·f — what
 * validphys does. Channels come in ascending evolution index (`14 · first + second` for
 * hadronic tables), as legacy tables have them; a combination left all zero is dropped. The
 * theory's scale ratios (`theoryScales`) come from the `XIF` and `XIR` of the theory card
 * pineko stores under the metadata key `theory`, when it is there.
 *
 * @throws UnsupportedInputError - naming the file, for a grid that is not an FK table (several
 *   orders or scales, interpolation subgrids, no factorisation scale) or uses a convolution type or
 *   particle-id basis partonfit does not read
 * @throws InputFileError - naming the file and key, for unknown parton ids, a grid with no
 *   values, a zero bin normalisation or values that are not finite
 */
export function pineapplFkTable(
  grid: PineapplGrid,
  options: PineapplFkTableOptions = {},
): PineapplFkTable {
  checkOrders(grid);
  const sideBeams = beams(grid);
  const sides = sideBeams.map((beam) => beam !== 'none') as [boolean, boolean];
  const pdfs = sides.filter(Boolean).length;
  if (pdfs === 0) {
    throw notAnFkTable(grid, 'initial_state_1', 'neither initial state carries a PDF');
  }
  const hadronic = pdfs === 2;
  const pidBasis = pidBasisOf(grid);
  const { subgrids, muf2, xGrid } = importedSubgrids(grid, sides);
  const nx = xGrid.length;
  const ndata = grid.subgridShape[1];
  const binNormalizations = pineapplBinNormalizations(grid);
  binNormalizations.forEach((norm, bin) => {
    if (!Number.isFinite(norm) || norm === 0) {
      throw new InputFileError({
        file: grid.file,
        key: 'bin normalisations',
        problem: `bin ${bin} has normalisation ${norm}`,
      });
    }
  });

  // For each channel: the evolution-basis combinations (index 14·i + j, or i for DIS) and weights.
  const pdfSide = sides[0] ? 0 : 1;
  const channelTerms = grid.channels.map((entries, channel) => {
    const terms = new Map<number, number>();
    for (const { pid1, pid2, factor } of entries) {
      const key = `channels[${channel}]`;
      if (hadronic) {
        const first = beamCombination(grid, pidBasis, pid1, key, sideBeams[0]);
        const second = beamCombination(grid, pidBasis, pid2, key, sideBeams[1]);
        first.forEach((a, i) => {
          second.forEach((b, j) => {
            if (a !== 0 && b !== 0) {
              const index = i * EVOLUTION_BASIS_SIZE + j;
              terms.set(index, (terms.get(index) ?? 0) + factor * a * b);
            }
          });
        });
      } else {
        const combination = beamCombination(
          grid,
          pidBasis,
          pdfSide === 0 ? pid1 : pid2,
          key,
          sideBeams[pdfSide],
        );
        combination.forEach((weight, i) => {
          if (weight !== 0) terms.set(i, (terms.get(i) ?? 0) + factor * weight);
        });
      }
    }
    return terms;
  });
  const combinations = [...new Set(channelTerms.flatMap((terms) => [...terms.keys()]))].sort(
    (a, b) => a - b,
  );
  const position = new Map(combinations.map((combination, index) => [combination, index]));
  const perPoint = combinations.length * (hadronic ? nx * nx : nx);
  if (ndata * perPoint > MAX_VALUES) {
    throw new InputFileError({
      file: grid.file,
      key: 'subgrids',
      problem: `${ndata} bins × ${perPoint} values per bin exceed ${MAX_VALUES} values`,
    });
  }
  const values = new Float64Array(ndata * perPoint);
  for (const { bin, channel, subgrid, places } of subgrids) {
    const [places1, places2] = places;
    forEachSubgridValue(subgrid, (_, i1, i2, value) => {
      if (!Number.isFinite(value)) {
        throw new InputFileError({
          file: grid.file,
          key: `subgrids[0, ${bin}, ${channel}]`,
          problem: `value ${value} at x nodes (${i1}, ${i2})`,
        });
      }
      if (value === 0) return;
      const [a1, a2] = [places1[i1], places2[i2]];
      const [a, xDivisor] = hadronic
        ? [a1 * nx + a2, xGrid[a1] * xGrid[a2]]
        : pdfSide === 0
          ? [a1, xGrid[a1]]
          : [a2, xGrid[a2]];
      const scaled = value / xDivisor / binNormalizations[bin];
      for (const [combination, weight] of channelTerms[channel]) {
        const c = position.get(combination) ?? 0;
        const at = bin * perPoint + c * (hadronic ? nx * nx : nx) + a;
        values[at] += weight * scaled;
        if (!(Math.abs(values[at]) <= FLOAT32_MAX)) {
          throw new InputFileError({
            file: grid.file,
            key: `subgrids[0, ${bin}, ${channel}]`,
            problem: `value ${value} at x nodes (${xGrid[a1]}, ${xGrid[a2]}) gives ${values[at]}${Number.isFinite(values[at]) ? `, ${BEYOND_FLOAT32}` : ''}`,
          });
        }
      }
    });
  }
  return {
    fkTable: compactTable(grid, options, hadronic, combinations, values, ndata, xGrid, muf2),
    metadata: grid.metadata,
    binNormalizations,
    pidBasis,
    fileVersion: grid.fileVersion,
  };
}

/**
 * The scale ratios `XIF` and `XIR` of the theory card a grid carries as JSON under its `theory`
 * key (written by the grid's generator, e.g. yadism, and kept by pineko), with the card's `ID`;
 * undefined when the key is absent, is not a JSON object (pineko's FONLL combination writes a
 * Python repr) or lacks either ratio as a positive number: the table then says no scales.
 */
function pineapplTheoryScales(
  metadata: ReadonlyMap<string, string>,
): TheoryScaleRatios | undefined {
  const text = metadata.get('theory');
  if (text === undefined) return undefined;
  let card: unknown;
  try {
    card = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof card !== 'object' || card === null) return undefined;
  const { XIF: factorisation, XIR: renormalisation, ID: id } = card as Record<string, unknown>;
  const positive = (value: unknown): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value > 0;
  const theoryId = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : undefined;
  return positive(factorisation) && positive(renormalisation)
    ? { factorisation, renormalisation, ...(theoryId === undefined ? {} : { theoryId }) }
    : undefined;
}

/** The FK table without the channels that stayed all zero. */
function compactTable(
  grid: PineapplGrid,
  options: PineapplFkTableOptions,
  hadronic: boolean,
  combinations: readonly number[],
  values: Float64Array,
  ndata: number,
  xGrid: Float64Array,
  muf2: number,
): FkTable {
  const nx = xGrid.length;
  const block = hadronic ? nx * nx : nx;
  const channels = combinations.length;
  const kept = combinations
    .map((combination, c) => ({ combination, c }))
    .filter(({ c }) => {
      for (let n = 0; n < ndata; n++) {
        const start = (n * channels + c) * block;
        for (let a = start; a < start + block; a++) if (values[a] !== 0) return true;
      }
      return false;
    });
  const compact = new Float64Array(ndata * kept.length * block);
  for (let n = 0; n < ndata; n++) {
    kept.forEach(({ c }, k) => {
      const from = (n * channels + c) * block;
      compact.set(values.subarray(from, from + block), (n * kept.length + k) * block);
    });
  }
  const name = options.name ?? pineapplTableNameOfFile(grid.file) ?? grid.file;
  const theoryScales = pineapplTheoryScales(grid.metadata);
  const base = {
    name,
    file: grid.file,
    q0: Math.sqrt(muf2),
    ndata,
    xGrid,
    cFactors: [],
    ...(theoryScales === undefined ? {} : { theoryScales }),
  };
  if (hadronic) {
    const pairs = kept.map(
      ({ combination }) =>
        [
          Math.floor(combination / EVOLUTION_BASIS_SIZE),
          combination % EVOLUTION_BASIS_SIZE,
        ] as const,
    );
    return { ...base, hadronic: true, channels: pairs, values: compact };
  }
  return {
    ...base,
    hadronic: false,
    channels: kept.map(({ combination }) => combination),
    values: compact,
  };
}

/**
 * Reads a PineAPPL FK table file (`<name>.pineappl.lz4`) into partonfit's model, see
 * {@link pineapplFkTable}.
 *
 * @throws InputFileError - naming the file, for an unreadable, damaged or unsupported grid (an
 *   {@link UnsupportedInputError} for another file version or a grid that is not an FK table)
 */
export async function loadPineapplFkTable(
  file: string,
  options: PineapplFkTableOptions = {},
): Promise<PineapplFkTable> {
  return pineapplFkTable(await readPineapplGrid(file), options);
}
