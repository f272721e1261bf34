/**
 * The training step in the seeds' formulation (a replica of `trainReplicas`' loop body) and the
 * five deliberately naive variants it is compared with.
 *
 * @packageDocumentation
 */
export type { BenchStep } from './bench-step.js';
export { fitStyleStep } from './fit-style-step.js';
export {
  gatheredSplitLosses,
  gatheredSplitStep,
  modeSelection,
  type GatheredSplitLosses,
  type ModeSelection,
} from './gathered-split-step.js';
export {
  disposeLagrangeTerms,
  lagrangePenalties,
  lagrangeTerms,
  type LagrangeTerm,
} from './lagrange-terms.js';
export { disposeLosses, optimiseStep, type KeptLosses } from './optimise-step.js';
export { perReplicaModelsStep, type PerReplicaModelsStep } from './per-replica-models-step.js';
export { secondPassValidationStep } from './second-pass-validation-step.js';
export { seedStep, type SeedStepOptions } from './seed-step.js';
