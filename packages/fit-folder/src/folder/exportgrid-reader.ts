import { readFile } from 'node:fs/promises';
import { InputFileError } from '@partonfit/core';
import { EXPORT_GRID_LABELS, type ExportGridContents } from './exportgrid.js';
import { flowLayoutFields, yamlLayoutFields, type ExportGridField } from './exportgrid-fields.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A list item or scalar as a finite number: a YAML number, or text that reads as one. */
function numberOf(item: unknown, file: string, line: number | undefined, key: string): number {
  const value =
    typeof item === 'number'
      ? item
      : typeof item === 'string' && NUMBER.test(item)
        ? Number(item)
        : NaN;
  if (!Number.isFinite(value)) {
    throw new InputFileError({
      file,
      line,
      key,
      problem: `'${String(item)}' is not a finite number`,
    });
  }
  return value;
}

function required<T>(
  field: ExportGridField<T> | undefined,
  key: string,
  file: string,
): ExportGridField<T> {
  if (field === undefined) throw new InputFileError({ file, key, problem: 'missing' });
  return field;
}

/**
 * Parses an n3fit `.exportgrid`: the keys `labels`, `pdfgrid` (one row of 14 numbers per x
 * point), `q20`, `replica` and `xgrid`; other keys are ignored. The layout upstream n3fit and
 * {@link formatExportGrid} write (flow lists, `- [...]` rows) is read by a fast line reader; any
 * other YAML layout (PyYAML's block style or one flow mapping, say) by the `yaml` package.
 *
 * @param text - the file's text
 * @param file - the file, for error messages
 * @returns the grid, `pdfGrid` `(x, flavour)` row-major in {@link EXPORT_GRID_LABELS} order
 * @throws InputFileError naming the file, line and key for text that is not YAML, a missing key
 *   or a list that is not one, labels other than
 *   upstream's, a row that is not 14 numbers, a non-finite number, rows that do not match the
 *   x grid, a non-positive `q20` or a replica number that is not an integer ≥ 0
 */
export function parseExportGrid(text: string, file: string): ExportGridContents {
  const fields = flowLayoutFields(text) ?? yamlLayoutFields(text, file);
  const labelsField = required(fields.labels, 'labels', file);
  const labels = labelsField.value.map(String);
  if (labels.join(',') !== EXPORT_GRID_LABELS.join(',')) {
    throw new InputFileError({
      file,
      line: labelsField.line,
      key: 'labels',
      problem: `expected [${EXPORT_GRID_LABELS.join(', ')}], got [${labels.join(', ')}]`,
    });
  }
  const xList = required(fields.xgrid, 'xgrid', file);
  const xGrid = Float64Array.from(xList.value, (item) => numberOf(item, file, xList.line, 'xgrid'));
  const flavours = EXPORT_GRID_LABELS.length;
  const pdfField = required(fields.pdfgrid, 'pdfgrid', file);
  const rows = pdfField.value;
  if (rows.length !== xGrid.length) {
    throw new InputFileError({
      file,
      line: pdfField.line,
      key: 'pdfgrid',
      problem: `${rows.length} rows for ${xGrid.length} x points`,
    });
  }
  const pdfGrid = new Float64Array(rows.length * flavours);
  rows.forEach(({ line, value: items }, ix) => {
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
  const scalar = (key: 'q20' | 'replica') => {
    const field = required(fields[key], key, file);
    return { value: numberOf(field.value, file, field.line, key), line: field.line };
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
