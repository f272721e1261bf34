import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRuncard, type ValidatedRuncard } from '@partonfit/core';
import { writeFileAtomic } from '@partonfit/io';

/**
 * The folder of a fit folder that keeps the scan trials of a runcard's `trial_specs`:
 * `<fit>/hyperscan/tries.json`, a copy of the scan's file, so that the fit folder alone says
 * which hyperparameters every replica had, wherever the scan lives.
 */
export const FIT_HYPERSCAN_FOLDER = 'hyperscan';

/**
 * Reads a fit folder's `runcard.yml` as the fit read it: a `trial_specs` runcard takes its
 * trials from the folder's own copy, `<fit>/hyperscan/` (see {@link FIT_HYPERSCAN_FOLDER}).
 *
 * @param fitFolder - `<output>/<fit>`
 * @throws RuncardError naming `<fit>/runcard.yml` when it is missing or invalid
 */
export async function loadFitFolderRuncard(fitFolder: string): Promise<ValidatedRuncard> {
  return loadRuncard(join(fitFolder, 'runcard.yml'), {
    hyperscan: join(fitFolder, FIT_HYPERSCAN_FOLDER),
  });
}

/**
 * Copies the `tries.json` of a runcard's `trial_specs` into the fit folder
 * (`<fit>/hyperscan/tries.json`, atomically), where {@link loadFitFolderRuncard} reads it.
 *
 * @param fitFolder - `<output>/<fit>`, which must exist
 * @param triesFile - the scan's `tries.json` the runcard was read with
 */
export async function keepFitHyperscan(fitFolder: string, triesFile: string): Promise<void> {
  const folder = join(fitFolder, FIT_HYPERSCAN_FOLDER);
  await mkdir(folder, { recursive: true });
  await writeFileAtomic(join(folder, 'tries.json'), await readFile(triesFile));
}
