import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { listReplicaFolders } from './replica-folders.js';

describe('listReplicaFolders', () => {
  it('should list replica_<n> folders in numerical order, nothing else', async () => {
    const nnfit = await mkdtemp(join(tmpdir(), 'partonfit-nnfit-'));
    for (const name of ['replica_10', 'replica_2', 'replica_1', 'replica_x', 'other']) {
      await mkdir(join(nnfit, name));
    }
    await writeFile(join(nnfit, 'replica_3'), 'a file, not a replica');
    expect(await listReplicaFolders(nnfit)).toEqual([1, 2, 10]);
  });

  it('should name a folder it cannot read', async () => {
    const absent = join(tmpdir(), 'partonfit-absent-nnfit');
    await expect(listReplicaFolders(absent)).rejects.toThrow(InputFileError);
    await expect(listReplicaFolders(absent)).rejects.toThrow(`${absent}: cannot read the folder`);
  });
});
