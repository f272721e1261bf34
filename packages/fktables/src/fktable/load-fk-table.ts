import { readInputText } from '@partonfit/io';
import type { FkTable } from './fk-table.js';
import {
  fkTableNameOfFile,
  parseLegacyFkTable,
  type ParseLegacyFkTableOptions,
} from './parse-legacy-fk-table.js';

/** Options of {@link loadFkTable}: those of {@link parseLegacyFkTable} but the file. */
export type LoadFkTableOptions = Omit<ParseLegacyFkTableOptions, 'file'>;

/**
 * Reads a legacy text FK table from disk: plain, gzip, a tar holding one file, or a gzip tar
 * (as NNPDF's server ships `theory_<ID>/fastkernel/FK_<SET>.dat`). The name comes from
 * `options.name`, else the file name, else the tar member's name, else GridInfo `*SETNAME`.
 * Errors name `file`; their line numbers count lines of the unpacked text.
 *
 * @param file - path of the table
 * @returns the compact table (see {@link FkTable}), no C-factors applied
 * @throws InputFileError - when the file cannot be read or unpacked, or is not a valid table
 */
export async function loadFkTable(
  file: string,
  options: LoadFkTableOptions = {},
): Promise<FkTable> {
  const { text, member } = await readInputText(file);
  const name =
    options.name ??
    fkTableNameOfFile(file) ??
    (member === undefined ? undefined : fkTableNameOfFile(member));
  return parseLegacyFkTable(text, { ...options, file, ...(name === undefined ? {} : { name }) });
}
