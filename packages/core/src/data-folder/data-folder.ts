import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where partonfit keeps what it downloads and caches: the user's cache folder and, inside the
 * data folder, NNPDF theories and LHAPDF sets laid out as NNPDF and LHAPDF lay them out.
 *
 * @packageDocumentation
 */

/** The environment variable that names the data folder (`partonfit get` puts downloads there). */
export const DATA_FOLDER_VARIABLE = 'PARTONFIT_DATA';

/** `$XDG_CACHE_HOME/partonfit`, or `~/.cache/partonfit`: partonfit's cache folder. */
export function userCacheFolder(): string {
  const base = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return join(base, 'partonfit');
}

/**
 * The data folder, as an absolute path: `folder` when given (a `--data` option or the runcard's
 * `data_paths.data`), else `$PARTONFIT_DATA`, else the user's cache folder
 * ({@link userCacheFolder}). It holds `theories/theory_<ID>/` and `lhapdf/<set>/`.
 *
 * @example
 * ```ts
 * import { dataFolder, theoriesFolder } from '@partonfit/core';
 *
 * console.log(theoriesFolder(dataFolder('/scratch/partonfit'))); // /scratch/partonfit/theories
 * ```
 */
export function dataFolder(folder?: string): string {
  const chosen = folder ?? process.env[DATA_FOLDER_VARIABLE];
  return chosen === undefined || chosen === '' ? userCacheFolder() : resolve(chosen);
}

/** `<data folder>/theories`: the folder of `theory_<ID>/` folders, laid out as NNPDF's. */
export function theoriesFolder(data: string): string {
  return join(data, 'theories');
}

/** `<data folder>/lhapdf`: the folder of LHAPDF sets (`<set>/<set>.info`, members). */
export function lhapdfFolder(data: string): string {
  return join(data, 'lhapdf');
}
