import { access, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { InputFileError, runcardDifference, runcardDigest, type Runcard } from '@partonfit/core';
import { FIT_HYPERSCAN_FOLDER, loadFitFolderRuncard } from './fit-hyperscan.js';
import { POSTFIT_FILES } from '../postfit/postfit.js';

/** The files a fit writes into its fit folder, which `clearFitFolder` removes. */
const FIT_FILES = [
  'nnfit',
  POSTFIT_FILES.folder,
  'summary.json',
  'summaries',
  'runcard.yml',
  FIT_HYPERSCAN_FOLDER,
  'tables',
];
const CHECKPOINT = /^\.?checkpoint_replicas_.*\.h5(\.[0-9a-f]{12}\.tmp)?$/;

/**
 * Refuses to fit `runcard` into a fit folder that holds a fit of another runcard (its
 * `runcard.yml` has other settings): the folder would mix two fits' replicas. A folder that does
 * not exist or has no `runcard.yml` is free; one with the same settings (another replica
 * selection of the same fit, or a rerun) is this fit's.
 *
 * @param fitFolder - `<output>/<fit>`
 * @param runcard - the runcard about to be fitted
 * @throws InputFileError naming the folder's `runcard.yml` and the first setting that differs;
 *   RuncardError when that file is not a valid runcard
 */
export async function checkFitFolderRuncard(fitFolder: string, runcard: Runcard): Promise<void> {
  const file = join(fitFolder, 'runcard.yml');
  const present = await access(file).then(
    () => true,
    () => false,
  );
  if (!present) return;
  const existing = (await loadFitFolderRuncard(fitFolder)).runcard;
  if (runcardDigest(existing) === runcardDigest(runcard)) return;
  const difference = runcardDifference(existing, runcard);
  throw new InputFileError({
    file,
    key: difference?.keyPath,
    problem: `the fit folder holds a fit of another runcard (${difference?.first ?? '?'} there, ${difference?.second ?? '?'} in this one); fitting into it would mix the two fits' replicas: choose another --output, rename the runcard, or pass --overwrite to delete the earlier fit`,
  });
}

/**
 * Deletes what a fit wrote into `fitFolder` — `nnfit/`, `postfit/`, `summary.json`,
 * `summaries/`, `runcard.yml`, `hyperscan/`, `tables/` and every `checkpoint_replicas_*.h5` — and leaves any
 * other file there alone.
 * For `partonfit fit --overwrite`.
 *
 * @returns the names removed
 */
export async function clearFitFolder(fitFolder: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(fitFolder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed = names.filter((name) => FIT_FILES.includes(name) || CHECKPOINT.test(name));
  for (const name of removed) await rm(join(fitFolder, name), { recursive: true, force: true });
  return removed;
}
