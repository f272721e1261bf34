import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NNPDF40_WORKLOAD } from '../workloads/workloads.js';
import type { WorkloadSpec } from '../workloads/workload-spec.js';
import { timePrepareFitInputs } from './setup-time.js';
import { writeSyntheticTheoryFolder } from './synthetic-theory-folder.js';

/** Set-up time of an NNPDF4.0-sized input set read from files, cold and from the HDF5 cache. */
export interface Nnpdf40SetupTiming {
  /** The workload whose shapes the files have. */
  readonly workload: string;
  /** Number of replicas prepared. */
  readonly replicas: number;
  /** Data points of the fit (measured datasets, after cuts). */
  readonly ndata: number;
  /** FK tables read (datasets, positivity and integrability sets). */
  readonly tables: number;
  /** Megabytes of files read (FK tables, commondata, runcard). */
  readonly megabytes: number;
  /** Writing the synthetic folder (not a partonfit cost). */
  readonly writeSeconds: number;
  /** `prepareFitInputs` with an empty cache folder, until it returns the inputs. */
  readonly coldSeconds: number;
  /** From the cold call's start until its HDF5 cache file is in place (written in the background). */
  readonly coldCacheWrittenSeconds: number;
  /** `prepareFitInputs` again, from the HDF5 cache. */
  readonly cachedSeconds: number;
  /** CPU time (user + system) of the cold call: the work, whatever the machine's load. */
  readonly coldCpuSeconds: number;
  /** CPU time of the cached call. */
  readonly cachedCpuSeconds: number;
  /** Whether the second call did come from the cache. */
  readonly cacheHit: boolean;
}

/**
 * Writes a synthetic theory folder, commondata and runcard of `spec`'s shapes (default the
 * NNPDF4.0-sized workload) to a temporary folder, times `prepareFitInputs` on it cold and
 * cached for replicas 1…`replicas`, and deletes the folder.
 */
export async function measureNnpdf40SetupTime(
  replicas: number,
  spec: WorkloadSpec = NNPDF40_WORKLOAD,
): Promise<Nnpdf40SetupTiming> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-bench-theory-'));
  try {
    const start = performance.now();
    const written = await writeSyntheticTheoryFolder(spec, folder);
    const writeSeconds = (performance.now() - start) / 1000;
    const timing = await timePrepareFitInputs(written.runcardFile, replicas);
    return {
      workload: spec.name,
      replicas,
      ndata: timing.ndata,
      tables: written.tables,
      megabytes: written.bytes / 1e6,
      writeSeconds,
      coldSeconds: timing.coldSeconds,
      coldCacheWrittenSeconds: timing.coldCacheWrittenSeconds,
      cachedSeconds: timing.cachedSeconds,
      coldCpuSeconds: timing.coldCpuSeconds,
      cachedCpuSeconds: timing.cachedCpuSeconds,
      cacheHit: timing.cacheHit,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
