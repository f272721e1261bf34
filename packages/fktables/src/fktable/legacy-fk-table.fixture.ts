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

export { syntheticLegacyText, type SyntheticTable } from '@partonfit/testing/legacy-fk-table';

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
