import * as tf from '@tensorflow/tfjs-core';
import type { Runcard } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import type { IntegrationGrid } from '@partonfit/layers';
import {
  createReplicaOptimizer,
  ReplicaPdfModel,
  ReplicaStopping,
  type StepLosses,
  type TrainingParts,
} from '@partonfit/trainer';
import type { BenchStep } from './bench-step.js';

/** One replica's own model, optimiser and stopping, as an independent single-replica fit has. */
interface ReplicaFit {
  readonly model: ReplicaPdfModel;
  readonly optimizer: ReturnType<typeof createReplicaOptimizer>;
  readonly stopping: ReplicaStopping;
}

function replicaFit(
  runcard: Runcard,
  replica: number,
  inputs: FitInputs,
  integration: IntegrationGrid,
): ReplicaFit {
  const { parameters } = runcard;
  const model = new ReplicaPdfModel(runcard, [replica], inputs.xGrid, integration);
  return {
    model,
    optimizer: createReplicaOptimizer({
      name: parameters.optimizer.optimizer_name,
      learningRate: parameters.optimizer.learning_rate,
      clipnorm: parameters.optimizer.clipnorm,
    }),
    stopping: new ReplicaStopping(
      {
        replicas: 1,
        patience: Math.trunc(parameters.epochs * parameters.stopping_patience),
        thresholdChi2: parameters.threshold_chi2,
        delta: parameters.stopping_delta,
        positivityThreshold: parameters.positivity.threshold,
      },
      model.weights(),
    ),
  };
}

/** Replica r's entry of each per-replica loss, `(1)`. */
function replicaLosses(losses: StepLosses, r: number): StepLosses {
  const pick = (values: tf.Tensor1D) => tf.slice(values, [r], [1]);
  return {
    training: pick(losses.training),
    validation: pick(losses.validation),
    validationChi2PerPoint: pick(losses.validationChi2PerPoint),
    positivity: pick(losses.positivity),
  };
}

/** The per-replica-models step, with its models (replica r's model is `models[r]`). */
export interface PerReplicaModelsStep extends BenchStep {
  readonly models: readonly ReplicaPdfModel[];
}

/**
 * Naive variant of seed 001 (the multi-replica PDF): R single-replica PDF models — each its own
 * network, preprocessing, sum rules, optimiser and stopping, as R independent fits — evaluated one
 * after the other in a loop and stacked into the `(replicas, x, flavour)` PDF that feeds the same
 * observables and losses as the seed step (`parts.objective`). Only the PDF part differs from
 * {@link seedStep}: R small networks instead of one MultiDense network.
 */
export function perReplicaModelsStep(
  parts: TrainingParts,
  runcard: Runcard,
  inputs: FitInputs,
  integration: IntegrationGrid,
): PerReplicaModelsStep {
  const fits = inputs.replicas.map((replica) => replicaFit(runcard, replica, inputs, integration));
  const variables = fits.map((fit) => fit.model.trainableVariables());
  return {
    models: fits.map((fit) => fit.model),
    run(epoch) {
      tf.tidy(() => {
        let kept: StepLosses | undefined;
        const { grads } = tf.variableGrads(() => {
          const pdf = tf.concat(
            fits.map((fit) => fit.model.forward()),
            0,
          );
          const losses = parts.objective.losses(pdf);
          kept = {
            training: tf.keep(losses.training),
            validation: tf.keep(losses.validation),
            validationChi2PerPoint: tf.keep(losses.validationChi2PerPoint),
            positivity: tf.keep(losses.positivity),
          };
          return losses.total;
        }, variables.flat());
        const losses = kept as StepLosses;
        try {
          fits.forEach((fit, r) => {
            fit.stopping.update(epoch, replicaLosses(losses, r));
            fit.optimizer.applyGradients(
              variables[r],
              variables[r].map((variable) => grads[variable.name]),
              { active: fit.stopping.activeReplicas() },
            );
            fit.model.clipPreprocessing();
          });
        } finally {
          tf.dispose(Object.values(losses));
        }
      });
    },
    async readBack() {
      for (const fit of fits) await fit.stopping.snapshot();
    },
    dispose() {
      for (const fit of fits) {
        fit.stopping.dispose();
        fit.optimizer.dispose();
        fit.model.dispose();
      }
    },
  };
}
