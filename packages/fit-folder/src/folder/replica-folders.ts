import { readdir } from 'node:fs/promises';
import { InputFileError } from '@partonfit/core';

const REPLICA_FOLDER = /^replica_(\d+)$/;

/**
 * The replica numbers of the `replica_<n>` folders in `parent` (a fit's `nnfit/` or `postfit/`),
 * in increasing numerical order (`replica_2` before `replica_10`).
 *
 * @throws InputFileError naming `parent` when it cannot be read
 */
export async function listReplicaFolders(parent: string): Promise<number[]> {
  let entries;
  try {
    entries = await readdir(parent, { withFileTypes: true });
  } catch (cause) {
    throw new InputFileError({ file: parent, problem: 'cannot read the folder', cause });
  }
  return entries
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const match = REPLICA_FOLDER.exec(entry.name);
      return match === null ? [] : [Number(match[1])];
    })
    .sort((a, b) => a - b);
}
