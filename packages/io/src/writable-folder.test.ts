import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemError } from '@partonfit/core';
import { ensureWritableFolder } from './writable-folder.js';

describe('ensureWritableFolder', () => {
  it('should create the folder and its parents and leave nothing else in it', async () => {
    const folder = join(await mkdtemp(join(tmpdir(), 'partonfit-io-')), 'fits', 'closure');
    await ensureWritableFolder(folder);
    expect(await readdir(folder)).toEqual([]);
  });

  it('should name the path and the cause when a file stands where a folder belongs', async () => {
    const root = await mkdtemp(join(tmpdir(), 'partonfit-io-'));
    await writeFile(join(root, 'fits'), 'a file');
    const folder = join(root, 'fits', 'closure');
    const error: unknown = await ensureWritableFolder(folder).catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ENOTDIR' });
    expect((error as Error).message).toBe(
      `cannot create the folder ${folder}: a part of the path is a file, not a folder (ENOTDIR)`,
    );
  });
});
