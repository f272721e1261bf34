import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputFileError } from '@partonfit/core';
import h5wasm, {
  type Attribute,
  type Dataset,
  type File as H5File,
  type OutputData,
} from 'h5wasm/node';
import { hdf5Reason, withHdf5 } from './h5wasm-module.js';
import type { Hdf5Data, Hdf5Dataset, Hdf5FileContents } from './hdf5-dataset.js';

/** The HDF5 superblock signature, found at byte 0 or at 512, 1024, 2048, … after a user block. */
const SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Whether `file` carries the HDF5 signature; InputFileError when it cannot be read at all. */
async function hasHdf5Signature(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new InputFileError({ file, problem: `cannot read the file (${reason})`, cause });
  }
  try {
    const { size } = await handle.stat();
    const probe = Buffer.alloc(SIGNATURE.length);
    for (
      let offset = 0;
      offset + SIGNATURE.length <= size;
      offset = offset === 0 ? 512 : offset * 2
    ) {
      await handle.read(probe, 0, SIGNATURE.length, offset);
      if (probe.equals(SIGNATURE)) return true;
    }
    return false;
  } finally {
    await handle.close();
  }
}

/** The H5T classes of h5wasm's metadata that partonfit reads. */
const H5T_INTEGER = 0;
const H5T_FLOAT = 1;

/** The dataset types partonfit reads, by H5T class, size and signedness. */
const SUPPORTED = [
  { type: H5T_FLOAT, size: 8, signed: false, array: Float64Array },
  { type: H5T_FLOAT, size: 4, signed: false, array: Float32Array },
  { type: H5T_INTEGER, size: 4, signed: true, array: Int32Array },
  { type: H5T_INTEGER, size: 1, signed: false, array: Uint8Array },
] as const;

/** The dataset's values as one of the supported typed arrays, or undefined for other types. */
function datasetData(dataset: Dataset): Hdf5Data | undefined {
  const { type, size, signed } = dataset.metadata;
  const kind = SUPPORTED.find(
    (candidate) =>
      candidate.type === type &&
      candidate.size === size &&
      (type === H5T_FLOAT || candidate.signed === signed),
  );
  if (kind === undefined) return undefined;
  const value = dataset.value;
  if (value instanceof kind.array) return value;
  // a scalar dataset comes back as a plain number
  return typeof value === 'number' ? kind.array.of(value) : undefined;
}

/** An attribute's value as a string, a number or a list of numbers; undefined otherwise. */
function attributeValue(attribute: Attribute): string | number | number[] | undefined {
  const value: OutputData | null = attribute.value;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as ArrayLike<number | bigint>, Number);
  }
  return undefined;
}

/** Every supported dataset and attribute of an open file. */
function readContents(input: H5File, file: string): Hdf5FileContents {
  const datasets = new Map<string, Hdf5Dataset>();
  for (const path of input.paths()) {
    const entity = input.get(path);
    if (!(entity instanceof h5wasm.Dataset)) continue;
    const data = datasetData(entity);
    if (data === undefined) {
      throw new InputFileError({
        file,
        key: path,
        problem: `dataset type ${JSON.stringify(entity.dtype)} is not one of float64, float32, int32, uint8`,
      });
    }
    datasets.set(path, { shape: entity.shape ?? [], data });
  }
  return { datasets, attributes: rootAttributes(input) };
}

/** The root attributes of an open file that are strings, numbers or numeric arrays. */
function rootAttributes(input: H5File): Hdf5FileContents['attributes'] {
  const attributes: Record<string, string | number | number[]> = {};
  for (const [name, attribute] of Object.entries(input.attrs)) {
    const value = attributeValue(attribute);
    if (value !== undefined) attributes[name] = value;
  }
  return attributes;
}

/**
 * Reads every dataset and the root attributes of an HDF5 file.
 *
 * Datasets of float64, float32, int32 and uint8 are read (into the typed array of that type, C
 * order); attributes that are strings, numbers or numeric arrays are read, others are skipped.
 *
 * @param file - the HDF5 file
 * @returns the datasets by slash path and the root attributes
 * @throws InputFileError when the file is missing, is not HDF5, cannot be opened or read, or holds
 *   a dataset of another type (its path is the error's `key`)
 */
export async function readHdf5File(file: string): Promise<Hdf5FileContents> {
  return withOpenFile(file, (input) => readContents(input, file));
}

/**
 * Reads the root attributes of an HDF5 file alone, without its datasets (a cache file's
 * description, say).
 *
 * @throws InputFileError when the file is missing, is not HDF5, or cannot be opened or read
 */
export async function readHdf5Attributes(file: string): Promise<Hdf5FileContents['attributes']> {
  return withOpenFile(file, rootAttributes);
}

/** `work` on the open file, closed afterwards; its errors named by the file. */
async function withOpenFile<T>(file: string, work: (input: H5File) => T): Promise<T> {
  if (!(await hasHdf5Signature(file))) {
    throw new InputFileError({ file, problem: 'not an HDF5 file (no HDF5 signature)' });
  }
  return withHdf5(() => {
    let input: H5File;
    try {
      input = new h5wasm.File(resolve(file), 'r');
    } catch (cause) {
      throw new InputFileError({
        file,
        problem: `HDF5 cannot open the file: ${hdf5Reason(cause)}`,
        cause,
      });
    }
    try {
      return work(input);
    } catch (cause) {
      if (InputFileError.isInstance(cause)) throw cause;
      throw new InputFileError({ file, problem: `HDF5 read failed: ${hdf5Reason(cause)}`, cause });
    } finally {
      input.close();
    }
  });
}
