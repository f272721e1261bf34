import { existsSync, statSync } from 'node:fs';
import { readHdf5File, writeHdf5File, type Hdf5Dataset } from '@partonfit/io';
import type { FitInputs } from './fit-inputs.js';
import { packTree, unpackTree, type TreeArray } from './typed-array-tree.js';

/**
 * The HDF5 cache of fit inputs: writing and reading one file (see `prepareFitInputs`), apart
 * from the rest so that a worker thread can write the cache loading only this.
 *
 * @packageDocumentation
 */

/** Version of the cache layout; a cache written by another version is rebuilt. */
export const CACHE_FORMAT = 'partonfit-fit-inputs-3';

/** size and modification time of each file: a cached copy is valid while these agree. */
function fingerprints(files: readonly string[]): [string, number, number][] {
  return files.map((file) => {
    if (!existsSync(file)) return [file, -1, -1];
    const stats = statSync(file);
    return [file, stats.size, stats.mtimeMs];
  });
}

/** Writes the inputs to the HDF5 cache file, atomically (see `writeHdf5File`). */
export async function writeCache(file: string, inputs: FitInputs): Promise<void> {
  const { arrays, skeleton } = packTree(inputs);
  const datasets: Record<string, Hdf5Dataset> = {};
  for (const [path, data] of arrays) datasets[path] = { shape: [data.length], data };
  await writeHdf5File(file, {
    datasets,
    attributes: {
      format: CACHE_FORMAT,
      skeleton,
      fingerprints: JSON.stringify(fingerprints(inputs.sources)),
    },
  });
}

/** The cached inputs, or undefined when the file is missing, of another format, or stale. */
export async function readCache(file: string): Promise<FitInputs | undefined> {
  if (!existsSync(file)) return undefined;
  try {
    const { datasets, attributes } = await readHdf5File(file);
    if (attributes.format !== CACHE_FORMAT || typeof attributes.skeleton !== 'string')
      return undefined;
    const arrays = new Map<string, TreeArray>();
    for (const [path, dataset] of datasets) arrays.set(path, dataset.data);
    const inputs = unpackTree(attributes.skeleton, arrays) as FitInputs;
    const current = JSON.stringify(fingerprints(inputs.sources));
    return attributes.fingerprints === current ? inputs : undefined;
  } catch {
    // Unreadable, corrupt or of another layout: build the inputs again.
    return undefined;
  }
}
