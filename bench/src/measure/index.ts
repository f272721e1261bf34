/**
 * Running and timing steps: the measured loop with warm-up, budget, read-back counting and
 * memory trace; two formulations in alternation; one profiled step; repeated timings.
 *
 * @packageDocumentation
 */
export { profileStep, type KernelTime, type StepProfile } from './profile-step.js';
export {
  runPairedSteps,
  runSteps,
  type MeasuredPair,
  type MeasuredSteps,
  type RunStepsOptions,
  type SkippedSteps,
} from './run-steps.js';
export {
  measureSgemmThroughput,
  PROBE_MS,
  productFlops,
  SGEMM_SIZES,
  type SgemmThroughput,
} from './sgemm-throughput.js';
export { TimedStep, type ReadCounts } from './timed-step.js';
export { timeRepeated } from './time-repeated.js';
