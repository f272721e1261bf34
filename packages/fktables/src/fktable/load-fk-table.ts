import { InputFileError } from '@partonfit/core';
import {
  inputBytesAsText,
  isPineapplGrid,
  parsePineapplGrid,
  readInputBytes,
  type InputBytes,
} from '@partonfit/io';
import type { FkTable } from './fk-table.js';
import {
  fkTableNameOfFile,
  parseLegacyFkTable,
  type ParseLegacyFkTableOptions,
} from './parse-legacy-fk-table.js';
import { pineapplFkTable, pineapplTableNameOfFile } from './pineappl-fk-table.js';

/** Options of {@link loadFkTable}: those of {@link parseLegacyFkTable} but the file. */
export type LoadFkTableOptions = Omit<ParseLegacyFkTableOptions, 'file'>;

/**
 * The bytes of a file that is not a PineAPPL grid as a legacy table's text.
 *
 * @throws InputFileError saying that the file is neither format when it is not UTF-8 text (a
 *   PineAPPL grid with a damaged header, say)
 */
function asLegacyText(input: InputBytes, file: string): { text: string } {
  try {
    return inputBytesAsText(input, file);
  } catch (cause) {
    throw new InputFileError({
      file,
      problem: `neither a PineAPPL grid (it starts with neither "PineAPPL" nor an LZ4 frame) nor a text FK table (${cause instanceof InputFileError ? cause.problem : 'not UTF-8 text'})`,
      cause,
    });
  }
}

/**
 * Reads an FK table from disk, whichever format it has: a PineAPPL FK table
 * (`<NAME>.pineappl.lz4`, recognised by its content, see {@link pineapplFkTable}) or a legacy
 * text table — plain, gzip, a tar holding one file, or a gzip tar (as NNPDF's server ships
 * `theory_<ID>/fastkernel/FK_<SET>.dat`). The name comes from `options.name`, else the file
 * name, else the tar member's name, else (legacy) GridInfo `*SETNAME`. Errors name `file`; for
 * legacy tables their line numbers count lines of the unpacked text.
 *
 * @param file - path of the table
 * @returns the compact table (see {@link FkTable}), no C-factors applied
 * @throws InputFileError - when the file cannot be read or unpacked, or is not a valid table
 *   (an `UnsupportedInputError` for a PineAPPL grid partonfit does not read)
 */
export async function loadFkTable(
  file: string,
  options: LoadFkTableOptions = {},
): Promise<FkTable> {
  const input = await readInputBytes(file);
  const { member } = input;
  if (isPineapplGrid(input.bytes)) {
    const name =
      options.name ??
      pineapplTableNameOfFile(file) ??
      (member === undefined ? undefined : pineapplTableNameOfFile(member));
    const grid = parsePineapplGrid(input.bytes, { file });
    return pineapplFkTable(grid, name === undefined ? {} : { name }).fkTable;
  }
  const { text } = asLegacyText(input, file);
  const name =
    options.name ??
    fkTableNameOfFile(file) ??
    (member === undefined ? undefined : fkTableNameOfFile(member));
  return parseLegacyFkTable(text, { ...options, file, ...(name === undefined ? {} : { name }) });
}
