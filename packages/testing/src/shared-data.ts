import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The environment variable that points the tests at NNPDF's real inputs: unset means
 * `../shared/data` beside the repository; a folder means that folder; `none` hides the data, as
 * on a fresh clone of the public repository, so every test that needs it must skip visibly.
 */
export const SHARED_DATA_VARIABLE = 'PARTONFIT_SHARED_DATA';

const DEFAULT_SHARED_DATA = fileURLToPath(new URL('../../../../shared/data/', import.meta.url));

/** Where the data would be, with a trailing slash, when {@link SHARED_DATA_VARIABLE} hides it. */
const HIDDEN_SHARED_DATA = '/nonexistent/partonfit-shared-data-hidden/';

/**
 * The shared-data folder, with a trailing slash, for a value of {@link SHARED_DATA_VARIABLE}:
 * unset or empty for `../shared/data/` beside the repository, `none` for a folder that does not
 * exist, anything else for that folder.
 */
export function sharedDataFolder(setting: string | undefined): string {
  if (setting === undefined || setting === '') return DEFAULT_SHARED_DATA;
  if (setting === 'none') return HIDDEN_SHARED_DATA;
  return `${resolve(setting)}/`;
}

/**
 * The folder of the real NNPDF inputs the tests read, with a trailing slash: `../shared/data/`
 * beside the repository unless {@link SHARED_DATA_VARIABLE} says otherwise. When the data is
 * hidden it names a folder that does not exist, so a test that reads it without asking
 * {@link hasSharedData} first fails instead of passing on data a newcomer does not have.
 */
export const SHARED_DATA = sharedDataFolder(process.env[SHARED_DATA_VARIABLE]);

/**
 * Whether `<shared data>/<relativePath>` exists; when it does not, says so on the console so a
 * skipped test is visible, never silently counted as passing.
 *
 * @param relativePath - a file or folder inside the shared data, e.g. `bundles/SLACP.npz`
 * @param what - what the skipped tests check, for the message
 */
export function hasSharedData(relativePath: string, what: string): boolean {
  const present = existsSync(SHARED_DATA + relativePath);
  if (!present) {
    const hidden = SHARED_DATA === HIDDEN_SHARED_DATA ? ` (${SHARED_DATA_VARIABLE}=none)` : '';
    console.warn(`skipping ${what}: ../shared/data/${relativePath} is absent${hidden}`);
  }
  return present;
}
