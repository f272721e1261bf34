import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import {
  BATCH_FILE_NAME,
  batchFileName,
  scanFolderPaths,
  type ScanFolderPaths,
} from '@partonfit/fit-folder';
import { writeFileAtomic } from '@partonfit/io';
import { triesJson, type TrialDocument } from '../tries/trial-document.js';

/** The files of a scan (fit-folder's layout, shared with `partonfit status` and `report`). */
export type ScanFolder = ScanFolderPaths;

/** The files of the scan in `<output>/<name>`. */
export function scanFolder(outputFolder: string, name: string): ScanFolder {
  return scanFolderPaths(join(outputFolder, name));
}

/** The file of batch b's finished trials. */
export function batchFile(folder: ScanFolder, batch: number): string {
  return join(folder.batches, batchFileName(batch, 'trials'));
}

/** The claim of batch b by the process training it. */
function claimFile(folder: ScanFolder, batch: number): string {
  return join(folder.batches, batchFileName(batch, 'claim'));
}

/**
 * Claims batch b for this process: creates its claim file, which fails when another process (a
 * task of the same SLURM array) holds it.
 *
 * @returns whether the batch is this process's to train
 */
export async function claimBatch(
  folder: ScanFolder,
  batch: number,
  owner: string,
): Promise<boolean> {
  try {
    const handle = await open(claimFile(folder, batch), 'wx');
    await handle.writeFile(`${owner}\n`);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return false;
    throw error;
  }
}

/** Releases a claim (after the batch's trials are written, or when the training failed). */
export async function releaseBatch(folder: ScanFolder, batch: number): Promise<void> {
  await rm(claimFile(folder, batch), { force: true });
}

/** Removes every claim: a resumed scan retrains the batches a killed scan had claimed. */
export async function releaseAllBatches(folder: ScanFolder): Promise<number> {
  const names = await readdir(folder.batches).catch(() => [] as string[]);
  const claims = names.filter((name) => name.endsWith('.claim'));
  await Promise.all(claims.map((name) => rm(join(folder.batches, name), { force: true })));
  return claims.length;
}

/** Every finished trial document of the scan, in trial-id order. */
export async function finishedDocuments(folder: ScanFolder): Promise<TrialDocument[]> {
  const names = (await readdir(folder.batches).catch(() => [] as string[]))
    .filter((name) => BATCH_FILE_NAME.exec(name)?.[2] === 'json')
    .sort();
  const documents: TrialDocument[] = [];
  for (const name of names) {
    const file = join(folder.batches, name);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, 'utf8'));
    } catch (cause) {
      throw new InputFileError({
        file,
        problem: `cannot read the batch's trials (${String(cause)})`,
      });
    }
    if (!Array.isArray(parsed))
      throw new InputFileError({ file, problem: 'expected a list of trials' });
    documents.push(...(parsed as TrialDocument[]));
  }
  return documents.sort((a, b) => a.tid - b.tid);
}

/** How long a lock may be held before it counts as left behind by a killed process. */
const STALE_LOCK_MS = 60_000;

/**
 * Rewrites `tries.json` from every batch file, atomically, under a lock (a directory) so that
 * tasks finishing together do not overwrite each other's trials.
 */
export async function writeTries(folder: ScanFolder): Promise<void> {
  const lock = join(folder.hyperopt, 'tries.lock');
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    await writeFileAtomic(folder.tries, triesJson(await finishedDocuments(folder)));
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
