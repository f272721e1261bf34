import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  markCacheEntryUsed,
  trimCacheAfterWrite,
  userCacheFolder,
  type Runcard,
} from '@partonfit/core';
import {
  CLOSURE_DATA_X_RANGE,
  CLOSURE_DATASET_SPECS,
  CLOSURE_POSITIVITY_POINTS,
  CLOSURE_POSITIVITY_X_RANGE,
  CLOSURE_X_GRID_OPTIONS,
} from '../closure/closure-datasets.js';
import {
  SCALE_VARIED_CLOSURE_MAX_Y,
  SCALE_VARIED_CLOSURE_MIN_W2,
  SCALE_VARIED_CLOSURE_Q2_RANGE,
  SCALE_VARIED_CLOSURE_SPECS,
  SCALE_VARIED_CLOSURE_SQRT_S,
  SCALE_VARIED_CLOSURE_X_RANGE,
} from '../closure/scale-varied-closure.js';
import { cacheKey } from '@partonfit/io';
import { buildFitInputs, type ProgressReporter } from './build-fit-inputs.js';
import type { FitInputs } from './fit-inputs.js';
import type { DataFolds } from '../splits/held-out.js';
import { CACHE_FORMAT, readCache, writeCache } from './fit-inputs-cache.js';
import { inputPaths } from './input-paths.js';

const CACHE_WRITER = new URL('./cache-writer-worker.js', import.meta.url);

/** The cache files being written in the background by this process, until they are in place. */
const pendingWrites = new Map<string, Promise<void>>();

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
  SCALE_VARIED_CLOSURE_SPECS,
  SCALE_VARIED_CLOSURE_X_RANGE,
  SCALE_VARIED_CLOSURE_Q2_RANGE,
  SCALE_VARIED_CLOSURE_SQRT_S,
  SCALE_VARIED_CLOSURE_MAX_Y,
  SCALE_VARIED_CLOSURE_MIN_W2,
]);

/** Options of {@link prepareFitInputs}. */
export interface PrepareFitInputsOptions {
  /** The runcard's file: relative paths in it start at its folder. */
  readonly runcardFile: string;
  /** The replica of each row, 1-based (a replica may fill several rows with `folds`). */
  readonly replicas: readonly number[];
  /** k-fold cross-validation: each row leaves its fold's datasets out of training and validation. */
  readonly folds?: DataFolds | undefined;
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
  /**
   * Settles when the cache file is in place or its writing has failed (reported through
   * `report`): a cold preparation returns as soon as the inputs are built and writes the cache
   * in a worker thread, where the compiled package runs.
   */
  readonly cacheWritten: Promise<void>;
  /** Wall time of the preparation until the inputs are returned, in seconds. */
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
  'theorycovmatconfig',
] as const satisfies readonly (keyof Runcard)[];

function inputSettings(runcard: Runcard): unknown[] {
  return INPUT_KEYS.map((key) => runcard[key]);
}

/** The cache key: a hash of the builder's identity, the settings, resolved paths and replicas. */
function fitInputsKey(
  runcard: Runcard,
  runcardFile: string,
  replicas: readonly number[],
  folds: DataFolds | undefined,
): string {
  // The runcard's folder: relative bundle, fktables and commondata paths are resolved from it.
  const { runcardFolder, theories, commondata, lhapdf, theoryId } = inputPaths(
    runcard,
    runcardFile,
  );
  const paths = { runcardFolder, theories, commondata, lhapdf, theoryId };
  return cacheKey([
    CACHE_FORMAT,
    BUILDER_IDENTITY,
    inputSettings(runcard),
    paths,
    replicas,
    ...(folds === undefined ? [] : [folds]),
  ]);
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
  const { runcardFile, replicas, report, folds } = options;
  const key = fitInputsKey(runcard, runcardFile, replicas, folds);
  const folder = options.cacheFolder === undefined ? defaultCacheFolder() : options.cacheFolder;
  const cacheFile = folder === null ? undefined : join(folder, `fit-inputs-${key}.h5`);
  const seconds = () => (performance.now() - start) / 1000;
  if (cacheFile !== undefined) {
    await pendingWrites.get(cacheFile);
    const cached = await readCache(cacheFile);
    if (cached !== undefined) {
      await markCacheEntryUsed(cacheFile);
      report?.(`read the fit inputs from ${cacheFile}`);
      return {
        inputs: cached,
        cached: true,
        cacheFile,
        cacheWritten: Promise.resolve(),
        seconds: seconds(),
      };
    }
  }
  const inputs = await buildFitInputs(
    runcard,
    inputPaths(runcard, runcardFile),
    replicas,
    key,
    report,
    folds,
  );
  const cacheWritten = Promise.resolve();
  if (cacheFile === undefined)
    return { inputs, cached: false, cacheFile, cacheWritten, seconds: seconds() };
  try {
    await mkdir(dirname(cacheFile), { recursive: true });
    if (existsSync(fileURLToPath(CACHE_WRITER))) {
      const inBackground = writeCacheInBackground(cacheFile, inputs, report);
      return { inputs, cached: false, cacheFile, cacheWritten: inBackground, seconds: seconds() };
    }
    await writeCache(cacheFile, inputs);
    report?.(`cached the fit inputs in ${cacheFile}`);
    const trimmed = await trimCacheAfterWrite(dirname(cacheFile), cacheFile);
    if (trimmed !== undefined) report?.(trimmed);
  } catch (error) {
    report?.(`could not cache the fit inputs in ${cacheFile}: ${String(error)}`);
  }
  return { inputs, cached: false, cacheFile, cacheWritten, seconds: seconds() };
}

/**
 * Writes the cache file in a worker thread (atomically, as {@link writeCache}), registered in
 * {@link pendingWrites} until it is in place so that this process reads it only then; the
 * promise never rejects, a failure is reported.
 */
function writeCacheInBackground(
  file: string,
  inputs: FitInputs,
  report: ProgressReporter | undefined,
): Promise<void> {
  // No inherited Node options: a runner's `--conditions=@partonfit/source` would send the
  // compiled worker to the TypeScript sources.
  const worker = new Worker(CACHE_WRITER, { workerData: { file, inputs }, execArgv: [] });
  const written = new Promise<void>((resolve) => {
    let settled = false;
    const settle = (problem: string | undefined) => {
      if (settled) return;
      settled = true;
      report?.(
        problem === undefined
          ? `cached the fit inputs in ${file}`
          : `could not cache the fit inputs in ${file}: ${problem}`,
      );
      if (problem !== undefined) {
        resolve();
        return;
      }
      void trimCacheAfterWrite(dirname(file), file).then((trimmed) => {
        if (trimmed !== undefined) report?.(trimmed);
        resolve();
      });
    };
    worker.once('message', ({ problem }: { problem: string | undefined }) => {
      settle(problem);
    });
    worker.once('error', (error) => {
      settle(String(error));
    });
    worker.once('exit', (code) => {
      settle(`the cache writer exited with code ${code}`);
    });
  }).finally(() => {
    pendingWrites.delete(file);
  });
  pendingWrites.set(file, written);
  return written;
}
