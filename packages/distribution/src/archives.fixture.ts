import { gzipSync } from 'node:zlib';
import { makeTar, type TarFixtureEntry } from '@partonfit/testing/tar';

/**
 * Archives laid out as NNPDF's and LHAPDF's servers lay them out, made in the test: a theory
 * `theory_<ID>.tgz` holding `theory_<ID>/fastkernel/` whose legacy tables are each a gzip tar
 * of `theory_<ID>/fastkernel/FK_<SET>.dat`.
 */

/** A legacy FK table as NNPDF's server ships it: a gzip tar holding the one table. */
export function shippedFkTable(theoryId: number, set: string, text: string): Uint8Array {
  return gzipSync(
    makeTar([{ name: `theory_${theoryId}/fastkernel/FK_${set}.dat`, content: text }]),
  );
}

/** `theory_<ID>.tgz` holding `tables` (file name → bytes) under `theory_<ID>/fastkernel/`. */
export function theoryArchive(
  theoryId: number,
  tables: Readonly<Record<string, Uint8Array>>,
): Uint8Array {
  const top = `theory_${theoryId}`;
  const entries: TarFixtureEntry[] = [
    { name: `${top}/`, type: '5' },
    { name: `${top}/fastkernel/`, type: '5' },
    ...Object.entries(tables).map(([name, content]) => ({
      name: `${top}/fastkernel/${name}`,
      content,
    })),
  ];
  return gzipSync(makeTar(entries));
}

/** A small synthetic theory: two legacy tables, each a gzip tar as NNPDF ships them. */
export function syntheticTheoryArchive(theoryId: number): Uint8Array {
  return theoryArchive(theoryId, {
    'FK_A.dat': shippedFkTable(theoryId, 'A', 'table A\n'.repeat(3000)),
    'FK_B.dat': shippedFkTable(theoryId, 'B', 'table B\n'.repeat(50)),
  });
}

/** A theory index as NNPDF's servers publish it. */
export function theoryIndex(files: readonly string[]): string {
  return JSON.stringify({ files });
}
