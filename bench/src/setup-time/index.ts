/**
 * Set-up time of fit inputs: `prepareFitInputs` cold and from the HDF5 cache, on the real-data
 * example and on an NNPDF4.0-sized synthetic theory folder written to disk.
 *
 * @packageDocumentation
 */
export { FK_VALUE_DIGITS, legacyFkText } from './legacy-fk-text.js';
export { measureNnpdf40SetupTime, type Nnpdf40SetupTiming } from './nnpdf40-setup.js';
export {
  EXAMPLES_FOLDER,
  measureSetupTime,
  setupRuncardFile,
  SHARED_DATA_FOLDER,
  timePrepareFitInputs,
  type PrepareTiming,
  type SetupTiming,
} from './setup-time.js';
export {
  HADRONIC_FILE_X_GRID,
  SYNTHETIC_OBSERVABLE,
  SYNTHETIC_THEORY_ID,
  writeSyntheticTheoryFolder,
  type SyntheticTheoryFolder,
} from './synthetic-theory-folder.js';
