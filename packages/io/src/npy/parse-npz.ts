import { InputFileError } from '@partonfit/core';
import type { NpyArray } from './npy-array.js';
import { parseNpy } from './parse-npy.js';
import { readZipMembers } from './zip.js';

/**
 * Parses the bytes of a `.npz` file (numpy's `savez` or `savez_compressed`: a zip of `.npy`
 * members, stored or deflated).
 *
 * @param bytes - the whole `.npz` content
 * @param options - the file named in errors
 * @returns the arrays by name: the member names without `.npy` (members of other kinds are
 *   ignored), in archive order
 * @throws InputFileError (with `key` = the zip member name, e.g. `fktable.npy`, where one member
 *   is at fault) for a corrupt or zip64 archive, a repeated name, or any error of
 *   {@link parseNpy}
 */
export function parseNpz(bytes: Uint8Array, options: { file: string }): Map<string, NpyArray> {
  const { file } = options;
  const arrays = new Map<string, NpyArray>();
  for (const member of readZipMembers(bytes, file)) {
    if (!member.name.endsWith('.npy')) continue;
    const key = member.name.slice(0, -'.npy'.length);
    if (arrays.has(key)) {
      throw new InputFileError({
        file,
        key: member.name,
        problem: 'the archive holds this array twice',
      });
    }
    arrays.set(key, parseNpy(member.bytes, { file, key: member.name }));
  }
  return arrays;
}
