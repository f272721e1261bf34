import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { FileSystemError } from '@partonfit/core';

/**
 * Writes `contents` to `file` atomically: the bytes go to a temporary file beside it, are
 * flushed to disk, and the temporary file is renamed over `file`. Readers and a crash at any
 * moment see either the old file or the complete new one, never a half-written file under the
 * final name.
 *
 * @param file - the final path; its folder must exist
 * @param contents - text (written as UTF-8) or bytes
 * @throws FileSystemError naming `file` and the cause (no space left, read-only, permission, a
 *   missing folder); the temporary file is removed
 */
export async function writeFileAtomic(file: string, contents: string | Uint8Array): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(contents);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    const failure = FileSystemError.fromSystemError(error);
    if (failure === undefined) throw error;
    throw new FileSystemError({ path: file, code: failure.code, operation: 'write', cause: error });
  }
}
