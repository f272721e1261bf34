import type { DisFkTable, FkTable, HadronicFkTable } from '@partonfit/fktables';

/** Significant digits of the FK values written (float32 precision, as the fit uses them). */
export const FK_VALUE_DIGITS = 7;

const header = (marker: string, name: string) => `${marker}${name}`.padEnd(60, '_');

function formatValue(value: number): string {
  return value === 0 ? '0' : value.toExponential(FK_VALUE_DIGITS - 1);
}

/** The `FlavourMap` lines: one row of 14 flags (DIS) or 14 rows of 14 (hadronic). */
function flavourMapLines(table: FkTable): string[] {
  if (!table.hadronic) {
    const flags = Array.from({ length: 14 }, (_, f) => (table.channels.includes(f) ? 1 : 0));
    return [flags.join(' ')];
  }
  const active = new Set(table.channels.map(([first, second]) => 14 * first + second));
  return Array.from({ length: 14 }, (_, i) =>
    Array.from({ length: 14 }, (_, j) => (active.has(14 * i + j) ? 1 : 0)).join(' '),
  );
}

/** The `FastKernel` rows of a DIS table: `data ix v0..v13`, one per point and node. */
function disRows(table: DisFkTable): string[] {
  const nx = table.xGrid.length;
  const channels = table.channels.length;
  const rows: string[] = [];
  const values = new Array<string>(14);
  for (let n = 0; n < table.ndata; n++) {
    for (let a = 0; a < nx; a++) {
      values.fill('0');
      table.channels.forEach((flavour, c) => {
        values[flavour] = formatValue(table.values[(n * channels + c) * nx + a]);
      });
      rows.push(`${n}\t${a}\t${values.join('\t')}`);
    }
  }
  return rows;
}

/**
 * The `FastKernel` rows of a hadronic table: `data ix1 ix2 v0..v195` (index 14·i + j), only
 * for the node pairs with a non-zero entry, as legacy tables store them.
 */
function hadronicRows(table: HadronicFkTable): string[] {
  const nx = table.xGrid.length;
  const channels = table.channels.length;
  const rows: string[] = [];
  const values = new Array<string>(196);
  for (let n = 0; n < table.ndata; n++) {
    for (let a = 0; a < nx; a++) {
      for (let b = 0; b < nx; b++) {
        values.fill('0');
        let nonZero = false;
        for (let c = 0; c < channels; c++) {
          const [first, second] = table.channels[c];
          const value = table.values[((n * channels + c) * nx + a) * nx + b];
          if (value !== 0) nonZero = true;
          values[14 * first + second] = formatValue(value);
        }
        if (nonZero) rows.push(`${n}\t${a}\t${b}\t${values.join('\t')}`);
      }
    }
  }
  return rows;
}

/**
 * A table in NNPDF's legacy text format (`FK_<SET>.dat`): the `GridDesc`, `VersionInfo`,
 * `GridInfo`, `FlavourMap`, `TheoryInfo`, `xGrid` and `FastKernel` sections, values with
 * {@link FK_VALUE_DIGITS} significant digits.
 */
export function legacyFkText(table: FkTable): string {
  const rows = table.hadronic ? hadronicRows(table) : disRows(table);
  return [
    header('{', 'GridDesc'),
    `synthetic partonfit benchmark table ${table.name}`,
    header('_', 'VersionInfo'),
    '*partonfit-bench: 1',
    header('_', 'GridInfo'),
    `*HADRONIC: ${table.hadronic ? 1 : 0}`,
    `*NDATA: ${table.ndata}`,
    `*NX: ${table.xGrid.length}`,
    `*SETNAME: ${table.name}`,
    header('{', 'FlavourMap'),
    ...flavourMapLines(table),
    header('_', 'TheoryInfo'),
    `*Q0: ${table.q0}`,
    header('{', 'xGrid'),
    ...Array.from(table.xGrid, (x) => x.toExponential(16)),
    header('{', 'FastKernel'),
    ...rows,
    '',
  ].join('\n');
}
