import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { applyCFactors, loadCFactors } from './cfactors.js';
import { loadCompound } from './compound.js';
import type { FkTable } from './fk-table.js';
import { loadFkTable } from './load-fk-table.js';
import { createObservable, type Observable } from './observable.js';

/**
 * Finding legacy FK tables, COMPOUND files and C-factors in a folder of theories laid out like
 * NNPDF's: `<theories>/theory_<ID>/{fastkernel,compound,cfactor}/`.
 *
 * @packageDocumentation
 */

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The folder of one theory, `<theoriesFolder>/theory_<ID>`, checked to exist.
 *
 * @throws InvalidArgumentError - when `theoryId` is not a non-negative integer
 * @throws InputFileError - naming the folder, when it does not exist
 */
export async function findTheoryFolder(theoriesFolder: string, theoryId: number): Promise<string> {
  if (!Number.isInteger(theoryId) || theoryId < 0) {
    throw new InvalidArgumentError({
      argument: 'theoryId',
      problem: `expected a non-negative integer, got ${theoryId}`,
    });
  }
  const folder = join(theoriesFolder, `theory_${theoryId}`);
  const found = await stat(folder).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!found) {
    throw new InputFileError({
      file: folder,
      problem: `no folder for theory ${theoryId}; \`partonfit get theory ${theoryId}\` downloads it into the data folder, where runcards without data_paths.theories look`,
    });
  }
  return folder;
}

/**
 * The path of a legacy FK table, `<theories>/theory_<ID>/fastkernel/FK_<SET>.dat` (its content
 * may be plain, gzip or a gzip tar), else `FK_<SET>.dat.gz` beside it.
 *
 * @throws InputFileError - naming the path looked for, when neither exists
 */
export async function findLegacyFkTable(
  theoriesFolder: string,
  theoryId: number,
  setName: string,
): Promise<string> {
  const folder = join(await findTheoryFolder(theoriesFolder, theoryId), 'fastkernel');
  const path = join(folder, `FK_${setName}.dat`);
  if (await isFile(path)) return path;
  if (await isFile(`${path}.gz`)) return `${path}.gz`;
  throw new InputFileError({
    file: path,
    problem: `no FK table for ${setName} in theory ${theoryId} (nor FK_${setName}.dat.gz); \`partonfit get theory ${theoryId}\` downloads NNPDF's whole theory`,
  });
}

/**
 * The file names an FK table named `setName` may have in a theory's `fastkernel` folder, in the
 * order they are tried: the legacy `FK_<SET>.dat` and `FK_<SET>.dat.gz`, then PineAPPL's
 * `<SET>.pineappl.lz4` (current NNPDF theories, named as commondata's `FK_tables` name them).
 */
export function fkTableFileNames(setName: string): string[] {
  return [`FK_${setName}.dat`, `FK_${setName}.dat.gz`, `${setName}.pineappl.lz4`];
}

/**
 * The path of an FK table of either format in `<theories>/theory_<ID>/fastkernel/`, the first of
 * {@link fkTableFileNames} that exists.
 *
 * @throws InputFileError - naming the paths looked for, when none exists
 */
export async function findFkTable(
  theoriesFolder: string,
  theoryId: number,
  setName: string,
): Promise<string> {
  const folder = join(await findTheoryFolder(theoriesFolder, theoryId), 'fastkernel');
  const paths = fkTableFileNames(setName).map((name) => join(folder, name));
  for (const path of paths) if (await isFile(path)) return path;
  throw new InputFileError({
    file: folder,
    problem: `no FK table for ${setName} in theory ${theoryId}: looked for ${fkTableFileNames(setName).join(', ')}`,
  });
}

/**
 * The path of a dataset's legacy COMPOUND file, `<theory>/compound/FK_<SET>-COMPOUND.dat`, or
 * undefined when the dataset has none (its observable is then the single table `FK_<SET>`).
 *
 * @throws InputFileError - when the theory folder does not exist
 */
export async function findCompoundFile(
  theoriesFolder: string,
  theoryId: number,
  setName: string,
): Promise<string | undefined> {
  const folder = await findTheoryFolder(theoriesFolder, theoryId);
  const path = join(folder, 'compound', `FK_${setName}-COMPOUND.dat`);
  return (await isFile(path)) ? path : undefined;
}

/**
 * The path of a C-factor file, `<theory>/cfactor/CF_<NAME>_<SET>.dat`, where `<SET>` is an FK
 * table's name (for compound datasets: each table's own name).
 *
 * @throws InputFileError - naming the path looked for, when it does not exist
 */
export async function findCFactorFile(
  theoriesFolder: string,
  theoryId: number,
  cFactorName: string,
  setName: string,
): Promise<string> {
  const folder = await findTheoryFolder(theoriesFolder, theoryId);
  const path = join(folder, 'cfactor', `CF_${cFactorName}_${setName}.dat`);
  if (await isFile(path)) return path;
  throw new InputFileError({
    file: path,
    problem: `no C-factor ${cFactorName} for FK table ${setName} in theory ${theoryId}`,
  });
}

/** Options of {@link loadLegacyObservable}. */
export interface LoadLegacyObservableOptions {
  /**
   * C-factor names (e.g. `QCD`, `EWK`): `CF_<NAME>_<TABLE>.dat` is applied to every table of the
   * observable; a missing file is an error.
   */
  readonly cfactors?: readonly string[];
}

/**
 * A dataset's observable from a legacy theory folder: the tables its COMPOUND file lists (each
 * one operand) combined by its operation, or the single table `FK_<SET>` with operation NULL
 * when there is no COMPOUND file. C-factors are multiplied into each table.
 *
 * @throws InputFileError - naming the path, for a missing theory folder, table, C-factor or a
 *   COMPOUND file whose tables do not fit together, and for any invalid file read
 */
export async function loadLegacyObservable(
  theoriesFolder: string,
  theoryId: number,
  setName: string,
  options: LoadLegacyObservableOptions = {},
): Promise<Observable> {
  const cFactorNames = options.cfactors ?? [];
  const tables = new Map<string, Promise<FkTable>>();
  const loadTable = (name: string): Promise<FkTable> => {
    let table = tables.get(name);
    if (table === undefined) {
      table = (async () => {
        const fkTable = await loadFkTable(await findLegacyFkTable(theoriesFolder, theoryId, name), {
          name,
        });
        const cFactors = await Promise.all(
          cFactorNames.map(async (cFactor) =>
            loadCFactors(
              await findCFactorFile(theoriesFolder, theoryId, cFactor, name),
              fkTable.ndata,
            ),
          ),
        );
        return applyCFactors(fkTable, cFactors);
      })();
      tables.set(name, table);
    }
    return table;
  };

  const compoundFile = await findCompoundFile(theoriesFolder, theoryId, setName);
  if (compoundFile === undefined) {
    return createObservable(setName, 'NULL', [[await loadTable(setName)]]);
  }
  const compound = await loadCompound(compoundFile);
  const operands = await Promise.all(compound.tables.map(async (name) => [await loadTable(name)]));
  try {
    return createObservable(setName, compound.operation, operands);
  } catch (cause) {
    if (!InvalidArgumentError.isInstance(cause)) throw cause;
    throw new InputFileError({ file: compoundFile, problem: cause.message, cause });
  }
}
