import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputFileError, isMapping } from '@partonfit/core';
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

/**
 * Releases the claim of a batch whose training did not end (interrupted, or failed). A finished
 * batch keeps its claim beside its trials, so that no process can claim it again between seeing
 * no trials and claiming.
 */
export async function releaseBatch(folder: ScanFolder, batch: number): Promise<void> {
  await rm(claimFile(folder, batch), { force: true });
}

/**
 * Removes the claims of unfinished batches — all of them (`owner` undefined: a resumed scan run
 * by one process retrains what a killed run left), or those of `owner` (a requeued SLURM task,
 * whose earlier run was killed before it could release them).
 *
 * @returns the batches released
 */
export async function releaseUnfinishedBatches(
  folder: ScanFolder,
  owner?: string,
): Promise<number[]> {
  const names = await readdir(folder.batches).catch(() => [] as string[]);
  const released: number[] = [];
  for (const name of names) {
    const match = BATCH_FILE_NAME.exec(name);
    if (match?.[2] !== 'claim' || names.includes(batchFileName(Number(match[1]), 'trials'))) {
      continue;
    }
    const file = join(folder.batches, name);
    if (owner !== undefined && (await readFile(file, 'utf8').catch(() => '')).trim() !== owner) {
      continue;
    }
    await rm(file, { force: true });
    released.push(Number(match[1]));
  }
  return released;
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
    if (!Array.isArray(parsed)) {
      throw new InputFileError({ file, problem: 'expected a list of trials' });
    }
    parsed.forEach((entry: unknown, index) => {
      if (!isTrialDocument(entry)) {
        throw new InputFileError({
          file,
          key: `[${index}]`,
          problem: 'expected a trial document (tid, state, result, misc)',
        });
      }
      documents.push(entry);
    });
  }
  return documents.sort((a, b) => a.tid - b.tid);
}

/** Whether a parsed value has what the scan reads of a trial document. */
function isTrialDocument(value: unknown): value is TrialDocument {
  if (!isMapping(value)) return false;
  return (
    typeof value.tid === 'number' &&
    typeof value.state === 'number' &&
    isMapping(value.result) &&
    isMapping(value.misc) &&
    isMapping(value.misc.vals)
  );
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
