import { EVOLUTION_BASIS_SIZE, InputFileError } from '@partonfit/core';
import { readFastKernelRows } from './fast-kernel-rows.js';
import type { FkTable, TheoryScaleRatios } from './fk-table.js';
import {
  readKeyValues,
  sectionLines,
  splitLegacySections,
  type LegacyLayout,
  type LegacySection,
  type SectionLine,
} from './legacy-sections.js';

/** Options of {@link parseLegacyFkTable}. */
export interface ParseLegacyFkTableOptions {
  /** The file the text came from, for errors and for the table's name. */
  readonly file: string;
  /**
   * The table's name; by default taken from the file name (`FK_<NAME>.dat` → `<NAME>`), else
   * from GridInfo `*SETNAME`.
   */
  readonly name?: string;
  /**
   * What a non-zero value in a channel that the FlavourMap marks inactive is: `'error'` (the
   * default: the map and the rows disagree, so one of them is wrong) or `'drop'` (the map is
   * authoritative and the value is ignored, as NNPDF's validphys does silently).
   */
  readonly inactiveChannels?: 'error' | 'drop';
}

const REQUIRED_SECTIONS = ['GridInfo', 'FlavourMap', 'TheoryInfo', 'xGrid'] as const;

/** The table name a file name implies: `…/FK_<NAME>.dat[.gz]` → `<NAME>`. */
export function fkTableNameOfFile(file: string): string | undefined {
  const base = file.split(/[\\/]/).pop() ?? file;
  return /^FK_(.+?)\.dat(?:\.gz)?$/.exec(base)?.[1];
}

function requireSection(layout: LegacyLayout, name: string, file: string): LegacySection {
  const section = layout.sections.get(name);
  if (section === undefined) {
    throw new InputFileError({
      file,
      line: layout.fastKernel.headerLine,
      key: name,
      problem: `missing section: ${name} must come before FastKernel`,
    });
  }
  return section;
}

function requireKey(
  values: ReadonlyMap<string, SectionLine>,
  section: LegacySection,
  key: string,
  file: string,
): SectionLine {
  const entry = values.get(key);
  if (entry === undefined) {
    throw new InputFileError({
      file,
      line: section.headerLine,
      key: section.name,
      problem: `missing *${key}`,
    });
  }
  return entry;
}

/** A count written in decimal digits, at least `minimum` and at most `maximum`. */
function parseCount(
  entry: SectionLine,
  key: string,
  file: string,
  { minimum, maximum, limit }: { minimum: number; maximum: number; limit: string },
): number {
  const value = Number(entry.text);
  if (!/^\d+$/.test(entry.text) || value < minimum) {
    throw new InputFileError({
      file,
      line: entry.line,
      key,
      problem: `expected an integer ≥ ${minimum} written in decimal digits, got "${entry.text}"`,
    });
  }
  if (value > maximum) {
    throw new InputFileError({
      file,
      line: entry.line,
      key,
      problem: `${entry.text} is more than the file can hold (${limit})`,
    });
  }
  return value;
}

interface GridInfo {
  readonly hadronic: boolean;
  readonly ndata: number;
  readonly nx: number;
  readonly setName: string | undefined;
}

/** The number of lines from `start` to `end` of `text`, at least 1 when the range is not empty. */
function lineCount(text: string, start: number, end: number): number {
  let lines = start < end ? 1 : 0;
  for (let position = text.indexOf('\n', start); position !== -1 && position < end - 1;) {
    lines += 1;
    position = text.indexOf('\n', position + 1);
  }
  return lines;
}

/**
 * GridInfo's values. `*NDATA` is bounded by the file before the table is allocated (each data
 * point needs at least one FastKernel row); `*NX` must match the xGrid's lines.
 */
function parseGridInfo(
  text: string,
  section: LegacySection,
  file: string,
  bounds: { readonly rows: number },
): GridInfo {
  const values = readKeyValues(text, section, file);
  const hadronic = requireKey(values, section, 'HADRONIC', file);
  if (hadronic.text !== '0' && hadronic.text !== '1') {
    throw new InputFileError({
      file,
      line: hadronic.line,
      key: 'HADRONIC',
      problem: `expected 0 or 1, got "${hadronic.text}"`,
    });
  }
  return {
    hadronic: hadronic.text === '1',
    ndata: parseCount(requireKey(values, section, 'NDATA', file), 'NDATA', file, {
      minimum: 1,
      maximum: bounds.rows,
      limit: `its FastKernel section has ${bounds.rows} lines, and each data point needs a row`,
    }),
    nx: parseCount(requireKey(values, section, 'NX', file), 'NX', file, {
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      limit: 'the xGrid section is checked against it',
    }),
    setName: values.get('SETNAME')?.text,
  };
}

/** A TheoryInfo value that must be a positive number, e.g. `*Q0` or `*XIF`. */
function positiveValue(entry: SectionLine, key: string, what: string, file: string): number {
  const value = Number(entry.text);
  if (entry.text === '' || !Number.isFinite(value) || value <= 0) {
    throw new InputFileError({
      file,
      line: entry.line,
      key,
      problem: `expected ${what}, got "${entry.text}"`,
    });
  }
  return value;
}

/**
 * TheoryInfo's `*Q0` and, when it has them, the scale ratios `*XIF` and `*XIR` with the theory's
 * `*ID`.
 *
 * @throws InputFileError - naming the line, for a `*Q0`, `*XIF`, `*XIR` or `*ID` that is not a
 *   number of its kind, or one of `*XIF` and `*XIR` without the other
 */
function parseTheoryInfo(
  text: string,
  section: LegacySection,
  file: string,
): { q0: number; theoryScales: TheoryScaleRatios | undefined } {
  const values = readKeyValues(text, section, file);
  const q0 = positiveValue(
    requireKey(values, section, 'Q0', file),
    'Q0',
    'a positive scale in GeV',
    file,
  );
  const [xif, xir, id] = [values.get('XIF'), values.get('XIR'), values.get('ID')];
  if (xif === undefined && xir === undefined) return { q0, theoryScales: undefined };
  if (xif === undefined || xir === undefined) {
    const [given, missing] = xif === undefined ? ['XIR', 'XIF'] : ['XIF', 'XIR'];
    throw new InputFileError({
      file,
      line: (xif ?? xir)?.line,
      key: missing,
      problem: `TheoryInfo has *${given} but not *${missing}: a theory's scales are the pair`,
    });
  }
  const theoryId = id === undefined ? undefined : Number(id.text);
  if (theoryId !== undefined && !(Number.isInteger(theoryId) && theoryId >= 0)) {
    throw new InputFileError({
      file,
      line: id?.line,
      key: 'ID',
      problem: `expected a theory id (an integer ≥ 0), got "${id?.text ?? ''}"`,
    });
  }
  return {
    q0,
    theoryScales: {
      factorisation: positiveValue(xif, 'XIF', 'a positive scale ratio μF/Q', file),
      renormalisation: positiveValue(xir, 'XIR', 'a positive scale ratio μR/Q', file),
      ...(theoryId === undefined ? {} : { theoryId }),
    },
  };
}

/**
 * The FlavourMap as flags over the flattened flavour index (14 for DIS; 196 = 14·i + j for
 * hadronic, row i = first PDF).
 */
function parseFlavourMap(
  text: string,
  section: LegacySection,
  hadronic: boolean,
  file: string,
): Uint8Array {
  const lines = sectionLines(text, section);
  const rows = hadronic ? EVOLUTION_BASIS_SIZE : 1;
  if (lines.length !== rows) {
    throw new InputFileError({
      file,
      line: lines[0]?.line ?? section.headerLine,
      key: 'FlavourMap',
      problem: `expected ${rows} row${rows === 1 ? '' : 's'} of ${EVOLUTION_BASIS_SIZE} flags for a ${hadronic ? 'hadronic' : 'DIS'} table, got ${lines.length}`,
    });
  }
  const flags = new Uint8Array(rows * EVOLUTION_BASIS_SIZE);
  lines.forEach(({ text: content, line }, row) => {
    const tokens = content.trim().split(/\s+/);
    if (tokens.length !== EVOLUTION_BASIS_SIZE || tokens.some((t) => t !== '0' && t !== '1')) {
      throw new InputFileError({
        file,
        line,
        key: 'FlavourMap',
        problem: `expected ${EVOLUTION_BASIS_SIZE} flags 0 or 1, got "${content.trim()}"`,
      });
    }
    tokens.forEach((token, column) => {
      flags[row * EVOLUTION_BASIS_SIZE + column] = token === '1' ? 1 : 0;
    });
  });
  if (!flags.includes(1)) {
    throw new InputFileError({
      file,
      line: section.headerLine,
      key: 'FlavourMap',
      problem: 'no active channel',
    });
  }
  return flags;
}

function parseXGrid(text: string, section: LegacySection, nx: number, file: string): Float64Array {
  const lines = sectionLines(text, section);
  if (lines.length !== nx) {
    throw new InputFileError({
      file,
      line: lines.at(-1)?.line ?? section.headerLine,
      key: 'xGrid',
      problem: `expected ${nx} x values (*NX), got ${lines.length}`,
    });
  }
  const xGrid = new Float64Array(nx);
  lines.forEach(({ text: content, line }, a) => {
    const token = content.trim();
    const x = Number(token);
    if (token === '' || /\s/.test(token) || !Number.isFinite(x) || x <= 0 || x > 1) {
      throw new InputFileError({
        file,
        line,
        key: 'xGrid',
        problem: `expected one x in (0, 1], got "${token}"`,
      });
    }
    if (a > 0 && x <= xGrid[a - 1]) {
      throw new InputFileError({
        file,
        line,
        key: 'xGrid',
        problem: `x values must increase strictly, got ${token} after ${xGrid[a - 1]}`,
      });
    }
    xGrid[a] = x;
  });
  return xGrid;
}

/**
 * Parses an FK table in NNPDF's legacy text format (theories up to NNPDF4.0, e.g. theory 200):
 * sections `GridDesc`, `VersionInfo`, `GridInfo` (`*HADRONIC`, `*NDATA`, `*NX`, `*SETNAME`),
 * `FlavourMap`, `TheoryInfo` (`*Q0`, the scale ratios `*XIF` and `*XIR` when both are there, …),
 * `xGrid`, then the `FastKernel` rows
 * `data ix v0…v13` (DIS) or `data ix1 ix2 v0…v195` (hadronic, value 14·i + j), separated by
 * any mix of spaces and tabs. `GridInfo`, `FlavourMap`, `TheoryInfo`, `xGrid` and `FastKernel`
 * are required; other sections are skipped.
 *
 * Only the channels the FlavourMap marks active are stored (see {@link FkTable}); a non-zero
 * value in an inactive channel is an error unless `inactiveChannels: 'drop'`.
 *
 * @param text - the whole file, uncompressed
 * @returns the compact table, no C-factors applied
 * @throws InputFileError - naming the file, line and section, for a missing or repeated
 *   section or key, a bad value, a row of the wrong width or cut short, a non-number, NaN or
 *   infinity, an index out of range, a repeated row, a value in an inactive channel, or data
 *   points without rows
 */
export function parseLegacyFkTable(text: string, options: ParseLegacyFkTableOptions): FkTable {
  const { file } = options;
  const layout = splitLegacySections(text, file);
  const [gridInfoSection, flavourMapSection, theorySection, xGridSection] = REQUIRED_SECTIONS.map(
    (name) => requireSection(layout, name, file),
  );
  const gridInfo = parseGridInfo(text, gridInfoSection, file, {
    rows: lineCount(text, layout.fastKernel.start, text.length),
  });
  const { hadronic, ndata, nx } = gridInfo;
  const flags = parseFlavourMap(text, flavourMapSection, hadronic, file);
  const { q0, theoryScales } = parseTheoryInfo(text, theorySection, file);
  const xGrid = parseXGrid(text, xGridSection, nx, file);

  const channelOf = new Int32Array(flags.length).fill(-1);
  const active: number[] = [];
  flags.forEach((flag, flattened) => {
    if (flag === 1) {
      channelOf[flattened] = active.length;
      active.push(flattened);
    }
  });
  const values = readFastKernelRows(text, layout.fastKernel, {
    file,
    hadronic,
    ndata,
    nx,
    channelOf,
    channelCount: active.length,
    inactiveChannels: options.inactiveChannels ?? 'error',
  });
  const name = options.name ?? fkTableNameOfFile(file) ?? gridInfo.setName ?? file;
  const common = {
    name,
    file,
    q0,
    ndata,
    xGrid,
    values,
    cFactors: [],
    ...(theoryScales === undefined ? {} : { theoryScales }),
  };
  if (!hadronic) return { ...common, hadronic: false, channels: active };
  return {
    ...common,
    hadronic: true,
    channels: active.map(
      (flattened) =>
        [Math.floor(flattened / EVOLUTION_BASIS_SIZE), flattened % EVOLUTION_BASIS_SIZE] as const,
    ),
  };
}
