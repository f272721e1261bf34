import * as tf from '@tensorflow/tfjs-core';
import type { FitInputs } from '@partonfit/fktables';
import { LAGRANGE_UPDATE_EVERY, type TrainingParts } from '@partonfit/trainer';
import type { BenchStep } from './bench-step.js';
import { disposeLosses, optimiseStep } from './optimise-step.js';

/** Options of {@link seedStep}. */
export interface SeedStepOptions {
  /** Steps between two read-backs (default 100, the trainer's `logEvery`). */
  readonly logEvery?: number;
}

/**
 * The trainer's step as `trainReplicas` runs it (the formulation the seeds arrived at): one
 * multi-replica PDF (MultiDense), one forward pass whose predictions give the training χ², the
 * validation χ² and the penalties (precomputed per-replica masks), gradient, stopping update and
 * optimiser update on the device, the multipliers grown every 100 steps, and a read-back of the
 * losses and the stopping state only every `logEvery` steps. The loop is re-written here from the
 * trainer's public parts because `trainReplicas` offers no per-step hook (see the report).
 */
export function seedStep(
  parts: TrainingParts,
  inputs: FitInputs,
  options: SeedStepOptions = {},
): BenchStep {
  const logEvery = options.logEvery ?? 100;
  const { model, objective, stopping } = parts;
  const trainingCounts = tf.tensor1d(
    Array.from(inputs.trainingCounts, (count) => Math.max(count, 1)),
  );
  let last: tf.Tensor2D | undefined;
  return {
    run(epoch) {
      tf.tidy(() => {
        const losses = optimiseStep(parts, epoch, () => objective.losses(model.forward()));
        try {
          if ((epoch + 1) % logEvery === 0) {
            last?.dispose();
            last = tf.keep(
              tf.stack([
                tf.div(losses.trainingChi2, trainingCounts),
                losses.validationChi2PerPoint,
              ]),
            ) as tf.Tensor2D;
          }
        } finally {
          disposeLosses(losses);
        }
      });
      if ((epoch + 1) % LAGRANGE_UPDATE_EVERY === 0) objective.updateMultipliers();
    },
    async readBack() {
      await stopping.snapshot();
      if (last !== undefined) await last.data();
    },
    dispose() {
      last?.dispose();
      trainingCounts.dispose();
    },
  };
}
