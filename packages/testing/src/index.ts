/**
 * @partonfit/testing — the fixtures partonfit's own tests share (private, not published): where
 * NNPDF's real inputs are and whether they are present, `describe` blocks repeated on every
 * backend, and the embedded closure runcard.
 *
 * @packageDocumentation
 */
export { describeOnBackends, TEST_BACKENDS, type TestBackend } from './backends.js';
export { CLOSURE_RUNCARD } from './closure-runcard.js';
export { hasSharedData, SHARED_DATA, SHARED_DATA_VARIABLE } from './shared-data.js';
