/**
 * `@partonfit/fit-folder/testing` — small synthetic fit folders for the tests of code that reads
 * fit folders (postfit, reports, the command line), without training a fit.
 *
 * @packageDocumentation
 */
export {
  SYNTHETIC_X,
  syntheticFit,
  syntheticPdfGrid,
  type SyntheticReplica,
} from './synthetic-fit.js';
