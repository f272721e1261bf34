import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `../shared/data` beside the repository: the real NNPDF inputs the tests read. */
export const SHARED_DATA = fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));

/**
 * Whether `../shared/data/<relativePath>` exists; when it does not, says so on the console so a
 * skipped test is visible, never silently counted as passing.
 */
export function hasSharedData(relativePath: string, what: string): boolean {
  const present = existsSync(SHARED_DATA + relativePath);
  if (!present) console.warn(`skipping ${what}: ../shared/data/${relativePath} is absent`);
  return present;
}
