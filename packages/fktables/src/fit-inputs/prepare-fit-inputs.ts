import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { userCacheFolder, type Runcard } from '@partonfit/core';
import {
  CLOSURE_DATA_X_RANGE,
  CLOSURE_DATASET_SPECS,
  CLOSURE_POSITIVITY_POINTS,
  CLOSURE_POSITIVITY_X_RANGE,
  CLOSURE_X_GRID_OPTIONS,
} from '../closure/closure-datasets.js';
import { cacheKey, readHdf5File, writeHdf5File, type Hdf5Dataset } from '@partonfit/io';
import { buildFitInputs, type ProgressReporter } from './build-fit-inputs.js';
import type { FitInputs } from './fit-inputs.js';
import { inputPaths } from './input-paths.js';
import { packTree, unpackTree, type TreeArray } from './typed-array-tree.js';

/** Version of the cache layout; a cache written by another version is rebuilt. */
const CACHE_FORMAT = 'partonfit-fit-inputs-1';

/**
 * What else decides the cached inputs beyond the runcard and the files: the package's version
 * (the code that builds them) and the definition of the embedded closure data, so that neither
 * an upgrade nor an edited closure dataset reuses a stale cache.
 */
const BUILDER_IDENTITY = JSON.stringify([
  (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version,
  CLOSURE_DATASET_SPECS,
  CLOSURE_DATA_X_RANGE,
  CLOSURE_POSITIVITY_POINTS,
  CLOSURE_POSITIVITY_X_RANGE,
  CLOSURE_X_GRID_OPTIONS,
]);

/** Options of {@link prepareFitInputs}. */
export interface PrepareFitInputsOptions {
  /** The runcard's file: relative paths in it start at its folder. */
  readonly runcardFile: string;
  /** The replicas, 1-based. */
  readonly replicas: readonly number[];
  /**
   * Folder of the HDF5 cache (default {@link defaultCacheFolder}); `null` neither reads nor
   * writes a cache.
   */
  readonly cacheFolder?: string | null;
  /** Receives a line for each stage of the set-up. */
  readonly report?: ProgressReporter;
}

/** The prepared inputs and how they were obtained. */
export interface PreparedFitInputs {
  readonly inputs: FitInputs;
  /** Whether they came from the cache. */
  readonly cached: boolean;
  /** The cache file read or written, if any. */
  readonly cacheFile: string | undefined;
  /** Wall time of the preparation, in seconds. */
  readonly seconds: number;
}

/** `$XDG_CACHE_HOME/partonfit`, or `~/.cache/partonfit`. */
export function defaultCacheFolder(): string {
  return userCacheFolder();
}

/** The runcard keys that decide the fit inputs (not the network, optimiser or stopping). */
const INPUT_KEYS = [
  'dataset_inputs',
  'datacuts',
  'theory',
  'trvlseed',
  'mcseed',
  'genrep',
  'diagonal_basis',
  'diagonal_frac',
  'same_trvl_per_replica',
  'positivity',
  'integrability',
  'closuretest',
] as const satisfies readonly (keyof Runcard)[];

function inputSettings(runcard: Runcard): unknown[] {
  return INPUT_KEYS.map((key) => runcard[key]);
}

/** size and modification time of each file: a cached copy is valid while these agree. */
function fingerprints(files: readonly string[]): [string, number, number][] {
  return files.map((file) => {
    if (!existsSync(file)) return [file, -1, -1];
    const stats = statSync(file);
    return [file, stats.size, stats.mtimeMs];
  });
}

/** The cache key: a hash of the builder's identity, the settings, resolved paths and replicas. */
function fitInputsKey(runcard: Runcard, runcardFile: string, replicas: readonly number[]): string {
  // The runcard's folder: relative bundle, fktables and commondata paths are resolved from it.
  const { runcardFolder, theories, commondata, lhapdf, theoryId } = inputPaths(
    runcard,
    runcardFile,
  );
  const paths = { runcardFolder, theories, commondata, lhapdf, theoryId };
  return cacheKey([CACHE_FORMAT, BUILDER_IDENTITY, inputSettings(runcard), paths, replicas]);
}

async function writeCache(file: string, inputs: FitInputs): Promise<void> {
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
async function readCache(file: string): Promise<FitInputs | undefined> {
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

/**
 * The fit inputs of a runcard for the given replicas, from the HDF5 cache when a valid copy
 * exists (same input settings, paths and replicas; input files unchanged since), otherwise
 * built by {@link buildFitInputs} and written to the cache atomically.
 */
export async function prepareFitInputs(
  runcard: Runcard,
  options: PrepareFitInputsOptions,
): Promise<PreparedFitInputs> {
  const start = performance.now();
  const { runcardFile, replicas, report } = options;
  const key = fitInputsKey(runcard, runcardFile, replicas);
  const folder = options.cacheFolder === undefined ? defaultCacheFolder() : options.cacheFolder;
  const cacheFile = folder === null ? undefined : join(folder, `fit-inputs-${key}.h5`);
  const seconds = () => (performance.now() - start) / 1000;
  if (cacheFile !== undefined) {
    const cached = await readCache(cacheFile);
    if (cached !== undefined) {
      report?.(`read the fit inputs from ${cacheFile}`);
      return { inputs: cached, cached: true, cacheFile, seconds: seconds() };
    }
  }
  const inputs = await buildFitInputs(
    runcard,
    inputPaths(runcard, runcardFile),
    replicas,
    key,
    report,
  );
  if (cacheFile !== undefined) {
    try {
      await mkdir(dirname(cacheFile), { recursive: true });
      await writeCache(cacheFile, inputs);
      report?.(`cached the fit inputs in ${cacheFile}`);
    } catch (error) {
      report?.(`could not cache the fit inputs in ${cacheFile}: ${String(error)}`);
    }
  }
  return { inputs, cached: false, cacheFile, seconds: seconds() };
}
