import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRuncard } from '@partonfit/core';
import { prepareFitInputs } from '@partonfit/fktables';

/** The repository's `examples/` folder (from `bench/src/setup-time/` and `bench/dist/setup-time/`). */
export const EXAMPLES_FOLDER = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** `../shared/data` beside the repository, which `examples/real-data.yml` reads. */
export const SHARED_DATA_FOLDER = fileURLToPath(
  new URL('../../../../shared/data/', import.meta.url),
);

/** The files `examples/real-data.yml` needs from the shared data. */
const REAL_DATA_FILES = [
  'bundles/HERACOMBCCEM.npz',
  'bundles/HERACOMBNCEP920.npz',
  'bundles/SLACP.npz',
  'theory_200/fastkernel/FK_ATLASTTBARTOT13TEV.dat',
  'theory_200/fastkernel/FK_POSXDQ.dat',
  'lhapdf/NNPDF40_nnlo_as_01180',
];

/**
 * The runcard to time the set-up on: `examples/real-data.yml` (real NNPDF inputs, t0 covariance)
 * when the shared data it reads are present, else the embedded closure `examples/closure.yml`.
 */
export function setupRuncardFile(sharedData = SHARED_DATA_FOLDER): string {
  const real = REAL_DATA_FILES.every((file) => existsSync(join(sharedData, file)));
  return join(EXAMPLES_FOLDER, real ? 'real-data.yml' : 'closure.yml');
}

/** Set-up time of a runcard's fit inputs, cold and from the HDF5 cache. */
export interface SetupTiming extends PrepareTiming {
  /** The runcard, relative to the repository. */
  readonly runcard: string;
  /** Number of replicas prepared. */
  readonly replicas: number;
}

/** `prepareFitInputs` on a runcard, cold and from the HDF5 cache. */
export interface PrepareTiming {
  /** Data points of the fit. */
  readonly ndata: number;
  /** `prepareFitInputs` with an empty cache folder, until it returns the inputs. */
  readonly coldSeconds: number;
  /** From the cold call's start until its HDF5 cache file is in place (written in the background). */
  readonly coldCacheWrittenSeconds: number;
  /** `prepareFitInputs` again, from the HDF5 cache. */
  readonly cachedSeconds: number;
  /**
   * CPU time (user + system) of the process during the cold call and its cache writing: on a
   * shared machine, the work done, whatever the other processes took of the wall time.
   */
  readonly coldCpuSeconds: number;
  /** CPU time of the process during the cached call. */
  readonly cachedCpuSeconds: number;
  /** Whether the second call did come from the cache. */
  readonly cacheHit: boolean;
}

/** CPU seconds (user + system) of this process since `start`. */
function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
}

/**
 * Times `prepareFitInputs` on a runcard for replicas 1…`replicas` twice with a fresh cache
 * folder: cold (built and cached) and warm (read from the HDF5 cache). The runcard is loaded
 * before either timing.
 */
export async function timePrepareFitInputs(
  runcardFile: string,
  replicas: number,
): Promise<PrepareTiming> {
  const { runcard } = await loadRuncard(runcardFile);
  const cacheFolder = await mkdtemp(join(tmpdir(), 'partonfit-bench-cache-'));
  const chosen = Array.from({ length: replicas }, (_, r) => r + 1);
  try {
    const options = { runcardFile, replicas: chosen, cacheFolder };
    const coldStart = process.cpuUsage();
    const coldWall = performance.now();
    const cold = await prepareFitInputs(runcard, options);
    await cold.cacheWritten;
    const coldCacheWrittenSeconds = (performance.now() - coldWall) / 1000;
    const coldCpuSeconds = cpuSecondsSince(coldStart);
    const cachedStart = process.cpuUsage();
    const cached = await prepareFitInputs(runcard, options);
    return {
      ndata: cold.inputs.ndata,
      coldSeconds: cold.seconds,
      coldCacheWrittenSeconds,
      cachedSeconds: cached.seconds,
      coldCpuSeconds,
      cachedCpuSeconds: cpuSecondsSince(cachedStart),
      cacheHit: cached.cached,
    };
  } finally {
    await rm(cacheFolder, { recursive: true, force: true });
  }
}

/**
 * Times `prepareFitInputs` on a runcard twice with a fresh cache folder: cold (built and cached)
 * and warm (read from the HDF5 cache), see {@link timePrepareFitInputs}.
 */
export async function measureSetupTime(
  runcardFile: string,
  replicas: number,
): Promise<SetupTiming> {
  const timing = await timePrepareFitInputs(runcardFile, replicas);
  return { runcard: runcardFile.slice(runcardFile.lastIndexOf('examples')), replicas, ...timing };
}
