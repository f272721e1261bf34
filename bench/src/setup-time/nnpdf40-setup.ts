import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NNPDF40_WORKLOAD } from '../workloads/workloads.js';
import type { WorkloadSpec } from '../workloads/workload-spec.js';
import { timePrepareFitInputs, type PrepareTiming } from './setup-time.js';
import { writeSyntheticTheoryFolder } from './synthetic-theory-folder.js';

/** Set-up time of an NNPDF4.0-sized input set read from files, cold and from the HDF5 cache. */
export interface Nnpdf40SetupTiming extends PrepareTiming {
  /** The workload whose shapes the files have. */
  readonly workload: string;
  /** Number of replicas prepared. */
  readonly replicas: number;
  /** FK tables read (datasets, positivity and integrability sets). */
  readonly tables: number;
  /** Megabytes of files read (FK tables, commondata, runcard). */
  readonly megabytes: number;
  /** Writing the synthetic folder (not a partonfit cost). */
  readonly writeSeconds: number;
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
      ...timing,
      workload: spec.name,
      replicas,
      tables: written.tables,
      megabytes: written.bytes / 1e6,
      writeSeconds,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
