import { InputFileError } from '@partonfit/core';
import { readInputText } from '@partonfit/io';
import { valuesPerDataPoint, type FkTable } from './fk-table.js';

/**
 * C-factors: per-data-point multiplicative corrections to an FK table's predictions (e.g.
 * NNLO/NLO K-factors or nuclear corrections), from NNPDF's `CF_<NAME>_<SET>.dat` files.
 */
export interface CFactors {
  /** The file they were read from. */
  readonly file: string;
  /** The text of the `*`-delimited header block (SetName, Author, …). */
  readonly description: string;
  /** The C-factor of each data point, shape `(data)`. */
  readonly central: Float64Array;
  /** The absolute uncertainty of each C-factor, shape `(data)`. */
  readonly uncertainty: Float64Array;
}

/** Options of {@link parseCFactors}. */
export interface ParseCFactorsOptions {
  /** The file the text came from, for errors. */
  readonly file: string;
  /** The number of data points: the file must hold exactly this many lines of values. */
  readonly ndata: number;
}

/**
 * Parses a C-factor file: a header block opened and closed by lines starting with `*`, then one
 * line `central uncertainty` per data point (blank lines are skipped).
 *
 * @throws InputFileError - naming the line, for a missing or unclosed header block, a line
 *   without exactly two numbers, a non-finite number, or a count of lines other than `ndata`
 */
export function parseCFactors(text: string, options: ParseCFactorsOptions): CFactors {
  const { file, ndata } = options;
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (!lines[0].startsWith('*')) {
    throw new InputFileError({
      file,
      line: 1,
      problem: "expected a header block opened by a line starting with '*'",
    });
  }
  const close = lines.findIndex((line, index) => index > 0 && line.startsWith('*'));
  if (close === -1) {
    throw new InputFileError({
      file,
      line: lines.length,
      problem: "the header block is never closed by a line starting with '*'",
    });
  }
  const central = new Float64Array(ndata);
  const uncertainty = new Float64Array(ndata);
  let count = 0;
  let lastLine = close + 1;
  for (let index = close + 1; index < lines.length; index++) {
    const content = lines[index].trim();
    if (content === '') continue;
    const line = index + 1;
    if (count === ndata) {
      throw new InputFileError({
        file,
        line,
        problem: `more than ${ndata} lines of C-factors (one per data point)`,
      });
    }
    const tokens = content.split(/\s+/);
    const values = tokens.map(Number);
    if (tokens.length !== 2 || !values.every(Number.isFinite)) {
      throw new InputFileError({
        file,
        line,
        problem: `expected two finite numbers "central uncertainty", got "${content}"`,
      });
    }
    central[count] = values[0];
    uncertainty[count] = values[1];
    count += 1;
    lastLine = line;
  }
  if (count !== ndata) {
    throw new InputFileError({
      file,
      line: lastLine,
      problem: `expected ${ndata} lines of C-factors (one per data point), got ${count}`,
    });
  }
  return { file, description: lines.slice(1, close).join('\n'), central, uncertainty };
}

/**
 * Reads a C-factor file (plain, gzip or a single-file tar) with {@link parseCFactors}.
 *
 * @throws InputFileError - when the file cannot be read or is not a valid C-factor file
 */
export async function loadCFactors(file: string, ndata: number): Promise<CFactors> {
  const { text } = await readInputText(file);
  return parseCFactors(text, { file, ndata });
}

/**
 * The FK table with C-factors multiplied in, as upstream validphys does: every value of data
 * point n is multiplied by the product over the C-factor sets of their central value at n. The
 * input table is not modified; the files are appended to the result's `cFactors`.
 *
 * @throws InputFileError - naming the C-factor file, when its length is not the table's `ndata`
 */
export function applyCFactors(fkTable: FkTable, cFactors: readonly CFactors[]): FkTable {
  if (cFactors.length === 0) return fkTable;
  const factors = new Float64Array(fkTable.ndata).fill(1);
  for (const set of cFactors) {
    if (set.central.length !== fkTable.ndata) {
      throw new InputFileError({
        file: set.file,
        problem: `holds ${set.central.length} C-factors, but the FK table ${fkTable.name} has ${fkTable.ndata} data points`,
      });
    }
    set.central.forEach((factor, n) => {
      factors[n] *= factor;
    });
  }
  const block = valuesPerDataPoint(fkTable);
  const values = new Float64Array(fkTable.values.length);
  for (let n = 0; n < fkTable.ndata; n++) {
    for (let k = n * block; k < (n + 1) * block; k++) values[k] = fkTable.values[k] * factors[n];
  }
  const files = [...fkTable.cFactors, ...cFactors.map((set) => set.file)];
  return { ...fkTable, values, cFactors: files };
}
