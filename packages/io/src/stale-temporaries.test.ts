import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleTemporaries } from './stale-temporaries.js';

describe('removeStaleTemporaries', () => {
  it('should remove only the temporaries of the given file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-temporaries-'));
    const names = [
      'checkpoint_replicas_1-4.h5',
      '.checkpoint_replicas_1-4.h5.0123456789ab.tmp',
      '.checkpoint_replicas_1-4.h5.ba9876543210.tmp',
      '.checkpoint_replicas_5-8.h5.0123456789ab.tmp',
      '.checkpoint_replicas_1-4.h5.tmp',
      'notes.txt',
    ];
    for (const name of names) await writeFile(join(folder, name), name);
    const removed = await removeStaleTemporaries(join(folder, 'checkpoint_replicas_1-4.h5'));
    expect(removed.sort()).toEqual([join(folder, names[1]), join(folder, names[2])]);
    expect((await readdir(folder)).sort()).toEqual([names[0], names[3], names[4], names[5]].sort());
    expect(await removeStaleTemporaries(join(folder, 'absent', 'file.h5'))).toEqual([]);
  });
});
