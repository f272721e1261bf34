import type { FitInputs } from '@partonfit/fktables';
import { TrainingSteps, type TrainingParts } from '@partonfit/trainer';
import type { BenchStep } from './bench-step.js';

/** Options of {@link seedStep}. */
export interface SeedStepOptions {
  /** Steps between two read-backs (default 100, the trainer's `logEvery`). */
  readonly logEvery?: number;
}

/**
 * The trainer's step as `trainReplicas` runs it (the formulation the seeds arrived at), through
 * the trainer's own `TrainingSteps`: one multi-replica PDF (MultiDense), one forward pass whose
 * predictions give the training χ², the validation χ² and the penalties (precomputed
 * per-replica masks), gradient, stopping update and optimiser update on the device, the
 * multipliers grown every 100 steps, and a read-back of the losses and the stopping state only
 * every `logEvery` steps.
 */
export function seedStep(
  parts: TrainingParts,
  inputs: FitInputs,
  options: SeedStepOptions = {},
): BenchStep {
  const steps = new TrainingSteps(parts, inputs.trainingCounts, {
    ...(options.logEvery === undefined ? {} : { logEvery: options.logEvery }),
  });
  return {
    run(epoch) {
      steps.step(epoch);
    },
    async readBack() {
      await steps.readBack();
    },
    dispose() {
      steps.dispose();
    },
  };
}
