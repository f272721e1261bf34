import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The temporary name pattern of an atomic write of a file named `name`. */
function temporaryPattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${escaped}\\.[0-9a-f]{12}\\.tmp$`);
}

/**
 * Removes the temporary files that atomic writes of `file` (`writeFileAtomic`, `writeHdf5File`)
 * left beside it when the process was killed mid-write: `.<name>.<12 hex digits>.tmp`. Call it
 * only when no other process can be writing `file` at the same time, e.g. for a fit's own
 * checkpoint before its training starts. A missing folder removes nothing.
 *
 * @returns the paths removed
 */
export async function removeStaleTemporaries(file: string): Promise<string[]> {
  const folder = dirname(file);
  const pattern = temporaryPattern(basename(file));
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const stale = names.filter((name) => pattern.test(name)).map((name) => join(folder, name));
  await Promise.all(stale.map((path) => rm(path, { force: true })));
  return stale;
}
