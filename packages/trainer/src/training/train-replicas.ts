import * as tf from '@tensorflow/tfjs-core';
import type { Runcard } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import { gaussIntegrationGrid, type IntegrationGrid } from '@partonfit/layers';
import { LAGRANGE_UPDATE_EVERY } from '../lagrange/lagrange-schedule.js';
import { ReplicaPdfModel } from '../model/pdf-model.js';
import { createReplicaOptimizer } from '../optimizers/replica-optimizer.js';
import { ReplicaStopping, type StoppingSnapshot } from '../stopping/replica-stopping.js';
import { FitObjective } from './fit-objective.js';

/** Options of {@link trainReplicas}. */
export interface TrainingOptions {
  /** Steps between two read-backs of losses and stopping state (default 100). */
  readonly logEvery?: number;
  /** The sum rules' integration grid (default 100-point Gauss–Legendre, see the layers' docs). */
  readonly integrationGrid?: IntegrationGrid;
  /** Called after every read-back, e.g. for a progress display. */
  readonly onProgress?: (progress: TrainingProgress) => void;
}

/** What the fit looks like at a read-back. */
export interface TrainingProgress {
  /** Epochs done. */
  readonly epoch: number;
  /** Of `parameters.epochs`. */
  readonly epochs: number;
  /** Replicas that have not stopped. */
  readonly training: number;
  /** Training χ² per training point of each replica at this epoch, (replicas). */
  readonly trainingChi2PerPoint: Float32Array;
  /** Validation χ² per validation point of each replica at this epoch, (replicas). */
  readonly validationChi2PerPoint: Float32Array;
  /** Stopping state. */
  readonly stopping: StoppingSnapshot;
}

/** The outcome for each replica, with its best weights restored in `model`. */
export interface TrainingResult {
  /** The model, holding every replica's best weights. */
  readonly model: ReplicaPdfModel;
  /** The objective (observables and losses), for predictions with the final model. */
  readonly objective: FitObjective;
  /** Epochs run (the fit stops early when every replica has stopped). */
  readonly epochsRun: number;
  /** Stopping state at the end. */
  readonly stopping: StoppingSnapshot;
  /** χ² per point of each replica with its best weights: training, validation, experimental. */
  readonly chi2PerPoint: {
    training: Float64Array;
    validation: Float64Array;
    experimental: Float64Array;
  };
  /** Each `log_every` epochs: the epoch and every replica's training and validation χ²/n. */
  readonly history: readonly { epoch: number; training: Float32Array; validation: Float32Array }[];
  /** Wall time of the training loop, in seconds. */
  readonly seconds: number;
}

/**
 * Trains every replica of `inputs` together: each step evaluates the PDF once, computes all
 * observables once, reads the training loss, the validation loss and the penalties off those
 * predictions, takes the gradient of the sum over replicas (replicas do not interact, so each
 * replica's gradient is its own), updates with per-replica clipping, clips the preprocessing
 * exponents, and updates the stopping state — all on the device, under `tf.tidy`. Losses and
 * stopping are read back every `logEvery` steps; multipliers grow every 100 epochs. At the end
 * each replica's best weights are restored.
 */
export async function trainReplicas(
  runcard: Runcard,
  inputs: FitInputs,
  options: TrainingOptions = {},
): Promise<TrainingResult> {
  const start = performance.now();
  const { parameters } = runcard;
  const epochs = parameters.epochs;
  const logEvery = options.logEvery ?? 100;
  const integration = options.integrationGrid ?? gaussIntegrationGrid(100);
  const model = new ReplicaPdfModel(runcard, inputs.replicas, inputs.xGrid, integration);
  const objective = new FitObjective(inputs, {
    epochs,
    positivity: parameters.positivity,
    integrability: parameters.integrability,
  });
  const variables = model.trainableVariables();
  const optimizer = createReplicaOptimizer({
    name: parameters.optimizer.optimizer_name,
    learningRate: parameters.optimizer.learning_rate,
    clipnorm: parameters.optimizer.clipnorm,
  });
  const stopping = new ReplicaStopping(
    {
      replicas: inputs.replicas.length,
      patience: Math.trunc(epochs * parameters.stopping_patience),
      thresholdChi2: parameters.threshold_chi2,
      delta: parameters.stopping_delta,
      positivityThreshold: parameters.positivity.threshold,
    },
    model.weights(),
  );
  const perPoint = (chi2: tf.Tensor1D, counts: Int32Array) =>
    tf.div(chi2, tf.tensor1d(Array.from(counts, (count) => Math.max(count, 1))));

  const history: { epoch: number; training: Float32Array; validation: Float32Array }[] = [];
  let last: tf.Tensor2D | undefined;
  let epochsRun = 0;
  let snapshot = await stopping.snapshot();
  for (let epoch = 0; epoch < epochs; epoch++) {
    tf.tidy(() => {
      let losses: ReturnType<FitObjective['losses']> | undefined;
      const { grads } = tf.variableGrads(() => {
        losses = objective.losses(model.forward());
        tf.keep(losses.training);
        tf.keep(losses.trainingChi2);
        tf.keep(losses.validation);
        tf.keep(losses.validationChi2PerPoint);
        tf.keep(losses.positivity);
        return losses.total;
      }, variables);
      if (losses === undefined) return;
      // The losses belong to the weights before this step's update: snapshot those.
      stopping.update(epoch, losses);
      optimizer.applyGradients(
        variables,
        variables.map((variable) => grads[variable.name]),
        { active: stopping.activeReplicas() },
      );
      model.preprocessing.clipToRanges();
      last?.dispose();
      last = tf.keep(
        tf.stack([
          perPoint(losses.trainingChi2, inputs.trainingCounts),
          losses.validationChi2PerPoint,
        ]) as tf.Tensor2D,
      );
      tf.dispose([
        losses.training,
        losses.trainingChi2,
        losses.validation,
        losses.validationChi2PerPoint,
        losses.positivity,
      ]);
    });
    epochsRun = epoch + 1;
    if (epochsRun % LAGRANGE_UPDATE_EVERY === 0) objective.updateMultipliers();
    if (epochsRun % logEvery === 0 || epochsRun === epochs) {
      snapshot = await stopping.snapshot();
      const values =
        last === undefined ? new Float32Array(0) : Float32Array.from(await last.data());
      const replicas = inputs.replicas.length;
      const training = values.slice(0, replicas);
      const validation = values.slice(replicas, 2 * replicas);
      history.push({ epoch: epochsRun, training, validation });
      options.onProgress?.({
        epoch: epochsRun,
        epochs,
        training: snapshot.stopEpoch.filter((stop) => stop < 0).length,
        trainingChi2PerPoint: training,
        validationChi2PerPoint: validation,
        stopping: snapshot,
      });
      if (ReplicaStopping.allStopped(snapshot)) break;
    }
  }
  last?.dispose();
  stopping.restoreBestWeights();
  stopping.dispose();
  optimizer.dispose();

  const chi2 = tf.tidy(() => {
    const { training, validation, experimental } = objective.chi2s(model.forward());
    return [
      perPoint(training, inputs.trainingCounts),
      perPoint(validation, inputs.validationCounts),
      tf.div(experimental, inputs.ndata),
    ];
  });
  const [training, validation, experimental] = await Promise.all(
    chi2.map((tensor) => tensor.data()),
  );
  tf.dispose(chi2);
  return {
    model,
    objective,
    epochsRun,
    stopping: snapshot,
    chi2PerPoint: {
      training: Float64Array.from(training),
      validation: Float64Array.from(validation),
      experimental: Float64Array.from(experimental),
    },
    history,
    seconds: (performance.now() - start) / 1000,
  };
}
