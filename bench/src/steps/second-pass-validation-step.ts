import * as tf from '@tensorflow/tfjs-core';
import type { FitInputs } from '@partonfit/fktables';
import { disposeStepLosses, trainingStep, type TrainingParts } from '@partonfit/trainer';
import type { BenchStep } from './bench-step.js';
import { seedStep } from './seed-step.js';

/**
 * Naive variant of seed 000's "one model, three losses": as upstream's separate validation model,
 * every step runs a second forward pass — the PDF and every observable again, outside the
 * gradient tape — and the stopping takes the validation losses from that pass instead of from the
 * training pass's predictions.
 */
export function secondPassValidationStep(parts: TrainingParts, inputs: FitInputs): BenchStep {
  const { model, objective } = parts;
  const base = seedStep(parts, inputs);
  return {
    run(epoch) {
      tf.tidy(() => {
        const losses = trainingStep(parts, epoch, {
          stoppingLosses: (training) => {
            const validation = objective.losses(model.forward());
            return {
              training: training.training,
              validation: validation.validation,
              validationChi2PerPoint: validation.validationChi2PerPoint,
              positivity: validation.positivity,
            };
          },
        });
        disposeStepLosses(losses);
      });
    },
    readBack: () => base.readBack(),
    dispose: () => {
      base.dispose();
    },
  };
}
