import * as tf from '@tensorflow/tfjs-core';
import type { FitInputs } from '@partonfit/fktables';
import { disposeStepLosses, trainingStep, type TrainingParts } from '@partonfit/trainer';
import type { BenchStep } from './bench-step.js';
import { seedStep } from './seed-step.js';

/** Yields to the event loop once, as tfjs-layers' `model.fit` awaits its callbacks. */
function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Naive variant of seed 000's batched loop: each step is one `model.fit`-style epoch — the input
 * x-grid is turned into tensors again and the sum-rule layer built anew for the call
 * (`ReplicaPdfModel.at`, as `fit` slices and uploads its inputs every epoch), the step runs, the
 * epoch's loss is read back to the host for the logs (`fit`'s History callback), and the loop
 * yields to the event loop for the callbacks. The seed step keeps its inputs on the device, reads
 * back every 100 steps and never yields.
 */
export function fitStyleStep(parts: TrainingParts, inputs: FitInputs): BenchStep {
  const { model, objective } = parts;
  const base = seedStep(parts, inputs);
  return {
    async run(epoch) {
      const logs = tf.tidy(() => {
        const losses = trainingStep(parts, epoch, {
          forward: () => objective.losses(model.at(inputs.xGrid)),
        });
        const total = tf.sum(losses.training);
        disposeStepLosses(losses);
        return total;
      });
      try {
        await logs.data();
      } finally {
        logs.dispose();
      }
      await nextTick();
    },
    readBack: () => base.readBack(),
    dispose: () => {
      base.dispose();
    },
  };
}
