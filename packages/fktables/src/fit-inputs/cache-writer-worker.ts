import { parentPort, workerData } from 'node:worker_threads';
import type { FitInputs } from './fit-inputs.js';
import { writeCache } from './fit-inputs-cache.js';

/**
 * The worker thread that writes the HDF5 cache of fit inputs in the background (see
 * `prepareFitInputs`): it answers `{ problem }`, undefined when the file is in place.
 *
 * @packageDocumentation
 */

const { file, inputs } = workerData as { file: string; inputs: FitInputs };
try {
  await writeCache(file, inputs);
  parentPort?.postMessage({ problem: undefined });
} catch (error) {
  parentPort?.postMessage({ problem: String(error) });
}
