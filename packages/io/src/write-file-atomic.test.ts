import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from './write-file-atomic.js';

describe('writeFileAtomic', () => {
  it('should replace a file with the new contents and leave no temporary file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-io-'));
    const file = join(folder, 'replica_1.json');
    await writeFile(file, '{"old": true}');
    await writeFileAtomic(file, '{"chi2": 1.07}');
    expect(await readFile(file, 'utf8')).toBe('{"chi2": 1.07}');
    await writeFileAtomic(file, new Uint8Array([1, 2, 3]));
    expect(Array.from(await readFile(file))).toEqual([1, 2, 3]);
    expect(await readdir(folder)).toEqual(['replica_1.json']);
  });

  it('should leave the old file and no temporary file when the write fails', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-io-'));
    const file = join(folder, 'weights.h5');
    await writeFile(file, 'old');
    const missingFolder = join(folder, 'no-such-folder', 'weights.h5');
    await expect(writeFileAtomic(missingFolder, 'new')).rejects.toThrow(
      `cannot write ${missingFolder}: no such file or folder (ENOENT)`,
    );
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(folder)).toEqual(['weights.h5']);
  });
});
