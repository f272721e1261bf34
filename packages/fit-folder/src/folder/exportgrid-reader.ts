import { readFile } from 'node:fs/promises';
import { InputFileError } from '@partonfit/core';
import { EXPORT_GRID_LABELS, type ExportGridContents } from './exportgrid.js';

/** A top-level key's value: its text (continuation lines joined) and its first line. */
interface Entry {
  readonly line: number;
  /** The text after `key:` on the key's line. */
  readonly head: string;
  /** The following indented or `- ` lines, each with its line number. */
  readonly body: { line: number; text: string }[];
}

const KEY_LINE = /^([A-Za-z_]\w*):(.*)$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The top-level keys of the text and their lines. */
function entriesOf(text: string, file: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let current: Entry | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trimEnd();
    if (content.trim() === '' || content.trimStart().startsWith('#')) return;
    const key = KEY_LINE.exec(content);
    if (key !== null) {
      current = { line, head: key[2].trim(), body: [] };
      entries.set(key[1], current);
    } else if (current !== undefined && /^[\s-]/.test(content)) {
      current.body.push({ line, text: content });
    } else {
      throw new InputFileError({ file, line, problem: 'expected a `key: value` line' });
    }
  });
  return entries;
}

/**
 * The items of a YAML flow sequence `[a, b, …]` that starts at `parts[0]` and may continue over
 * the following parts (wrapped lines).
 */
function flowItems(
  parts: readonly { line: number; text: string }[],
  file: string,
  key: string,
): { items: string[]; line: number } {
  const joined = parts.map((part) => part.text.trim()).join(' ');
  const line = parts[0]?.line;
  if (!joined.startsWith('[') || !joined.endsWith(']')) {
    throw new InputFileError({ file, line, key, problem: 'expected a list [a, b, …]' });
  }
  const inner = joined.slice(1, -1).trim();
  return { items: inner === '' ? [] : inner.split(',').map((item) => item.trim()), line };
}

function numberOf(item: string, file: string, line: number | undefined, key: string): number {
  if (!NUMBER.test(item)) {
    throw new InputFileError({ file, line, key, problem: `'${item}' is not a finite number` });
  }
  return Number(item);
}

function required(entries: Map<string, Entry>, key: string, file: string): Entry {
  const entry = entries.get(key);
  if (entry === undefined) throw new InputFileError({ file, key, problem: 'missing' });
  return entry;
}

/** A list written on the key's line, possibly wrapped onto indented lines. */
function inlineList(entry: Entry, file: string, key: string) {
  return flowItems([{ line: entry.line, text: entry.head }, ...entry.body], file, key);
}

/** The rows of a block sequence of flow sequences (`- [..]` lines, possibly wrapped). */
function blockRows(entry: Entry, file: string, key: string): { line: number; items: string[] }[] {
  if (entry.head !== '') {
    throw new InputFileError({ file, line: entry.line, key, problem: 'expected rows `- [...]`' });
  }
  const rows: { line: number; text: string }[][] = [];
  for (const part of entry.body) {
    if (part.text.startsWith('- ')) rows.push([{ line: part.line, text: part.text.slice(2) }]);
    else if (rows.length > 0) rows[rows.length - 1].push(part);
    else throw new InputFileError({ file, line: part.line, key, problem: 'expected `- [...]`' });
  }
  return rows.map((parts) => flowItems(parts, file, key));
}

/**
 * Parses an n3fit `.exportgrid` (as upstream n3fit and {@link formatExportGrid} write it): the
 * keys `labels`, `pdfgrid`, `q20`, `replica`, `xgrid`, lists as YAML flow sequences that may wrap
 * onto indented lines, `pdfgrid` as one `- [...]` row of 14 numbers per x point. Other keys are
 * ignored.
 *
 * @param text - the file's text
 * @param file - the file, for error messages
 * @returns the grid, `pdfGrid` `(x, flavour)` row-major in {@link EXPORT_GRID_LABELS} order
 * @throws InputFileError naming the file, line and key for a missing key, labels other than
 *   upstream's, a row that is not 14 numbers, a non-finite number, rows that do not match the
 *   x grid, a non-positive `q20` or a replica number that is not an integer ≥ 0
 */
export function parseExportGrid(text: string, file: string): ExportGridContents {
  const entries = entriesOf(text, file);
  const labelsEntry = required(entries, 'labels', file);
  const labels = inlineList(labelsEntry, file, 'labels').items;
  if (labels.join(',') !== EXPORT_GRID_LABELS.join(',')) {
    throw new InputFileError({
      file,
      line: labelsEntry.line,
      key: 'labels',
      problem: `expected [${EXPORT_GRID_LABELS.join(', ')}], got [${labels.join(', ')}]`,
    });
  }
  const xList = inlineList(required(entries, 'xgrid', file), file, 'xgrid');
  const xGrid = Float64Array.from(xList.items, (item) => numberOf(item, file, xList.line, 'xgrid'));
  const flavours = EXPORT_GRID_LABELS.length;
  const pdfEntry = required(entries, 'pdfgrid', file);
  const rows = blockRows(pdfEntry, file, 'pdfgrid');
  if (rows.length !== xGrid.length) {
    throw new InputFileError({
      file,
      line: pdfEntry.line,
      key: 'pdfgrid',
      problem: `${rows.length} rows for ${xGrid.length} x points`,
    });
  }
  const pdfGrid = new Float64Array(rows.length * flavours);
  rows.forEach(({ line, items }, ix) => {
    if (items.length !== flavours) {
      throw new InputFileError({
        file,
        line,
        key: 'pdfgrid',
        problem: `expected ${flavours} values in the row of x index ${ix}, got ${items.length}`,
      });
    }
    items.forEach((item, f) => {
      pdfGrid[ix * flavours + f] = numberOf(item, file, line, 'pdfgrid');
    });
  });
  const scalar = (key: string) => {
    const entry = required(entries, key, file);
    return { value: numberOf(entry.head, file, entry.line, key), line: entry.line };
  };
  const q20 = scalar('q20');
  if (!(q20.value > 0)) {
    throw new InputFileError({ file, line: q20.line, key: 'q20', problem: 'expected Q0² > 0' });
  }
  const replica = scalar('replica');
  if (!Number.isInteger(replica.value) || replica.value < 0) {
    throw new InputFileError({
      file,
      line: replica.line,
      key: 'replica',
      problem: `expected an integer ≥ 0, got ${replica.value}`,
    });
  }
  return { replica: replica.value, q20: q20.value, xGrid, pdfGrid };
}

/**
 * Reads and parses an `.exportgrid` file ({@link parseExportGrid}).
 *
 * @throws InputFileError naming the file when it cannot be read or parsed
 */
export async function readExportGrid(file: string): Promise<ExportGridContents> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputFileError({ file, problem: 'cannot read the file', cause });
  }
  return parseExportGrid(text, file);
}
