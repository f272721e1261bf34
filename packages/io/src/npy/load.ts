import { readInputBytes } from '../compressed/read-input.js';
import type { NpyArray } from './npy-array.js';
import { parseNpy } from './parse-npy.js';
import { parseNpz } from './parse-npz.js';

/**
 * Reads a `.npy` file (also gzip-compressed, or the single member of a tar) with
 * {@link parseNpy}.
 *
 * @throws InputFileError when the file cannot be read or is not a valid `.npy` array
 */
export async function loadNpy(file: string): Promise<NpyArray> {
  const { bytes } = await readInputBytes(file);
  return parseNpy(bytes, { file });
}

/**
 * Reads a `.npz` file with {@link parseNpz}: its arrays by name (member names without `.npy`).
 *
 * @throws InputFileError when the file cannot be read, is not a valid zip, or holds an invalid
 *   array (its member name is the error's `key`)
 */
export async function loadNpz(file: string): Promise<Map<string, NpyArray>> {
  const { bytes } = await readInputBytes(file);
  return parseNpz(bytes, { file });
}
