/**
 * Set-up time of real fit inputs: `prepareFitInputs` cold and from the HDF5 cache.
 *
 * @packageDocumentation
 */
export {
  EXAMPLES_FOLDER,
  measureSetupTime,
  setupRuncardFile,
  SHARED_DATA_FOLDER,
  type SetupTiming,
} from './setup-time.js';
