/**
 * The training step in the seeds' formulation (the trainer's own `TrainingSteps`) and the five
 * deliberately naive variants it is compared with, each a `trainingStep` with other options.
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
export { perReplicaModelsStep, type PerReplicaModelsStep } from './per-replica-models-step.js';
export { secondPassValidationStep } from './second-pass-validation-step.js';
export { seedStep, type SeedStepOptions } from './seed-step.js';
