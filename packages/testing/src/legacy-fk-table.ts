/**
 * The text of small synthetic legacy FK tables (`FK_<SET>.dat`), for the tests of the reader
 * and of the theory folders that hold them.
 *
 * @packageDocumentation
 */

/** Description of a small synthetic legacy table. */
export interface SyntheticTable {
  readonly hadronic: boolean;
  readonly ndata: number;
  readonly xGrid: readonly number[];
  /** 14 flags (DIS) or 14 rows of 14 (hadronic). */
  readonly flavourMap: readonly (readonly number[])[];
  /** Rows exactly as written: indices then the 14 or 196 values. */
  readonly rows: readonly (readonly (number | string)[])[];
  readonly q0?: number;
  /** The theory's scale ratios (k_F, k_R), written as TheoryInfo `*XIF` and `*XIR`; none if absent. */
  readonly scales?: readonly [factorisation: number, renormalisation: number];
  /** The theory's id, written as TheoryInfo `*ID`; none if absent. */
  readonly theoryId?: number;
}

const pad = (marker: string, name: string) => `${marker}${name}`.padEnd(60, '_');

/** The legacy text of a synthetic table, laid out like the real files (tabs in rows). */
export function syntheticLegacyText(table: SyntheticTable): string {
  return [
    pad('{', 'GridDesc'),
    'synthetic test table',
    pad('_', 'VersionInfo'),
    '*libnnpdf: test',
    pad('_', 'GridInfo'),
    `*HADRONIC: ${table.hadronic ? 1 : 0}`,
    `*NDATA: ${table.ndata}`,
    `*NX: ${table.xGrid.length}`,
    '*SETNAME: SYNTH',
    pad('{', 'FlavourMap'),
    ...table.flavourMap.map((row) => `${row.join(' ')} `),
    pad('_', 'TheoryInfo'),
    `*Q0: ${table.q0 ?? 1.65}`,
    '*PTO: 2',
    ...(table.theoryId === undefined ? [] : [`*ID: ${table.theoryId}`]),
    ...(table.scales === undefined ? [] : [`*XIF: ${table.scales[0]}`, `*XIR: ${table.scales[1]}`]),
    pad('{', 'xGrid'),
    ...table.xGrid.map((x) => x.toExponential(16)),
    pad('{', 'FastKernel'),
    ...table.rows.map((row) => `${row.join('\t')}\t`),
  ].join('\n');
}
