/**
 * @partonfit/testing — the fixtures partonfit's own tests share (private, not published):
 * `describe` blocks repeated on every backend, the embedded closure runcard and the channels of
 * synthetic hadronic tables, and the damage that fuzz tests of parsers apply. Where NNPDF's
 * real inputs are, and whether they are present, is the subpath `@partonfit/testing/shared-data`,
 * kept apart so that `vitest related` finds exactly the tests that read them (CI's newcomer pass).
 *
 * @packageDocumentation
 */
export { describeOnBackends, TEST_BACKENDS, type TestBackend } from './backends.js';
export {
  CLOSURE_RUNCARD,
  closureRuncardText,
  writeClosureRuncard,
  type ClosureRuncardChanges,
} from './closure-runcard.js';
export { registeredKernelsOf } from './kernel-profile.js';
export { cyclingChannels } from './luminosity-channels.js';
export { chi2BySolve } from './reference-chi2.js';
export { inputFileError, inputFileRejection } from './typed-errors.js';
export {
  damageBytes,
  damageText,
  FUZZ_MUTATIONS,
  fuzzParser,
  nonFiniteNumberPath,
  type FuzzOutcome,
  type FuzzRequest,
} from './fuzz.js';
export { localSlurmUnavailable, startLocalSlurm, type LocalSlurm } from './local-slurm.js';
