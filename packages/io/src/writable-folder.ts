import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FileSystemError } from '@partonfit/core';

/**
 * `mkdir -p`, with the true cause of a failure: Node's recursive mkdir reports ENOENT for a
 * read-only file system or a missing permission, so on ENOENT each missing level is created on its
 * own and the first level that fails says why.
 */
async function createFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const parent = dirname(folder);
    if (parent !== folder) await createFolder(parent);
    await mkdir(folder).catch((cause: unknown) => {
      if ((cause as NodeJS.ErrnoException).code !== 'EEXIST') throw cause;
    });
  }
}

/**
 * Creates `folder` (and its parents) when missing and checks that a file can be written in it,
 * by writing and removing a small probe file: run it before long work whose results go there, so
 * that a read-only file system, a full disk, a missing permission or a file in the way is found
 * before the work, not after.
 *
 * @throws FileSystemError naming the path and the cause
 */
export async function ensureWritableFolder(folder: string): Promise<void> {
  const probe = join(folder, `.partonfit-write-probe-${randomBytes(6).toString('hex')}`);
  try {
    await createFolder(folder);
    await writeFile(probe, 'partonfit checks that this folder is writable\n');
  } catch (error) {
    await rm(probe, { force: true }).catch(() => undefined);
    throw FileSystemError.fromSystemError(error, folder) ?? error;
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}
