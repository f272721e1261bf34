import { readFileSync } from 'node:fs';
import { SHARED_DATA } from '@partonfit/testing/shared-data';

/** The real DIS table of the shared data (20 points, 100 x nodes, 9 active flavours). */
export const POSXDQ_FILE = `${SHARED_DATA}theory_200/fastkernel/FK_POSXDQ.dat`;
/** The real hadronic table of the shared data (1 point, 30 x nodes, 81 active channels). */
export const ATLAS_TTBAR_FILE = `${SHARED_DATA}theory_200/fastkernel/FK_ATLASTTBARTOT13TEV.dat`;
/** `FK_POSXDQ.dat` as NNPDF's server ships it: a gzip tar with one member. */
export const POSXDQ_TAR_FILE = `${SHARED_DATA}theory_200/fastkernel_tar/FK_POSXDQ.dat`;
/** `FK_ATLASTTBARTOT13TEV.dat` as a gzip tar with one member. */
export const ATLAS_TTBAR_TAR_FILE = `${SHARED_DATA}theory_200/fastkernel_tar/FK_ATLASTTBARTOT13TEV.dat`;

/** The text of a shared-data file. */
export function readSharedText(file: string): string {
  return readFileSync(file, 'utf8');
}

/** The 1-based number of the first line of `text` that starts with `prefix`. */
export function lineStartingWith(text: string, prefix: string): number {
  const index = text.split('\n').findIndex((line) => line.startsWith(prefix));
  if (index === -1) throw new Error(`no line starts with ${JSON.stringify(prefix)}`);
  return index + 1;
}

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
    pad('{', 'xGrid'),
    ...table.xGrid.map((x) => x.toExponential(16)),
    pad('{', 'FastKernel'),
    ...table.rows.map((row) => `${row.join('\t')}\t`),
  ].join('\n');
}

/** A row of 14 zeros with `entries` (flavour → value) set. */
export function disValues(entries: Readonly<Record<number, number>>): number[] {
  const values = new Array<number>(14).fill(0);
  for (const [flavour, value] of Object.entries(entries)) values[Number(flavour)] = value;
  return values;
}

/** A row of 196 zeros with `entries` (14·i + j → value) set. */
export function hadronicValues(entries: readonly (readonly [number, number, number])[]): number[] {
  const values = new Array<number>(196).fill(0);
  for (const [i, j, value] of entries) values[14 * i + j] = value;
  return values;
}

/** A DIS flavour map with the given flavours active. */
export function disFlavourMap(active: readonly number[]): number[][] {
  return [Array.from({ length: 14 }, (_, f) => (active.includes(f) ? 1 : 0))];
}

/** A hadronic flavour map with the given (i, j) pairs active. */
export function hadronicFlavourMap(active: readonly (readonly [number, number])[]): number[][] {
  return Array.from({ length: 14 }, (_, i) =>
    Array.from({ length: 14 }, (_, j) => (active.some(([p, q]) => p === i && q === j) ? 1 : 0)),
  );
}
