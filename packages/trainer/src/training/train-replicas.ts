import * as tf from '@tensorflow/tfjs-core';
import {
  InvalidArgumentError,
  positiveInteger,
  type FitParameters,
  type Runcard,
} from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import { gaussIntegrationGrid, type IntegrationGrid } from '@partonfit/layers';
import { checkCheckpointInputs, readCheckpoint } from '../checkpoint/checkpoint-file.js';
import { runFingerprint, type RunFingerprint } from '../checkpoint/run-fingerprint.js';
import {
  CHECKPOINT_EVERY,
  type TrainingCheckpoint,
  type TrainingHistoryEntry,
} from '../checkpoint/training-checkpoint.js';
import { setStartingWeights } from '../export/starting-weights.js';
import type { ReplicaParameters } from '../export/replica-parameters.js';
import { ReplicaPdfModel, type ReplicaPdfModelOptions } from '../model/pdf-model.js';
import { createReplicaOptimizer } from '../optimizers/replica-optimizer.js';
import { ReplicaStopping, type StoppingSnapshot } from '../stopping/replica-stopping.js';
import { FitObjective, lagrangeOptions } from './fit-objective.js';
import { replicaFitEnds } from './replica-fit-ends.js';
import { runRetiringReplicas } from './retire-replicas.js';
import { runEpochs, type LoopSettings } from './run-epochs.js';
import {
  disposeTrainingParts,
  restoreCheckpoint,
  type TrainingLoopState,
  type TrainingParts,
} from './training-state.js';

/** Where and how often {@link trainReplicas} writes its checkpoint. */
export interface CheckpointOptions {
  /** The checkpoint file, e.g. `<output>/<fit>/checkpoint_replicas_1-10.h5`; its folder must exist. */
  readonly file: string;
  /**
   * Epochs between two checkpoints (default {@link CHECKPOINT_EVERY}, 1000). A checkpoint is
   * written at the first read-back at or after each multiple, so it costs no extra host sync,
   * and at the last read-back, so that finished training is never redone.
   */
  readonly every?: number;
}

/** Options of {@link trainReplicas}. */
export interface TrainingOptions {
  /** Steps between two read-backs of losses and stopping state (default 100). */
  readonly logEvery?: number;
  /** The sum rules' integration grid (default 100-point Gauss–Legendre, see the layers' docs). */
  readonly integrationGrid?: IntegrationGrid;
  /** Called after every read-back (and after the checkpoint it writes), e.g. for a progress display. */
  readonly onProgress?: (progress: TrainingProgress) => void;
  /** Write checkpoints to continue a killed fit from. */
  readonly checkpoint?: CheckpointOptions;
  /**
   * Continue from `checkpoint.file` (which must exist and belong to this runcard and these
   * replicas) instead of starting afresh: the result is the same, bit for bit on the same
   * backend, as that of an uninterrupted run. Pass the checkpoint itself when it was already
   * read (e.g. to refuse another fit's checkpoint before preparing the inputs): it is then not
   * read again, only its inputs' hash checked against this fit's.
   */
  readonly resume?: boolean | TrainingCheckpoint;
  /**
   * The fit's fingerprint with its inputs' hash (`runFingerprint(runcard, replicas, inputs)`),
   * when the caller has it already; computed otherwise.
   */
  readonly fingerprint?: RunFingerprint;
  /** The model's options, e.g. a custom preprocessing layer. */
  readonly model?: ReplicaPdfModelOptions;
  /**
   * Stops the training when aborted (e.g. from a SIGTERM or SIGINT handler): after the step in
   * progress, the checkpoint is written (with `checkpoint`) and a TrainingInterruptedError is
   * thrown; resuming from that checkpoint ends exactly as an uninterrupted fit. With a signal the
   * loop lets the event loop run between steps, so that signal handlers are heard at once.
   */
  readonly signal?: AbortSignal;
  /**
   * Take the replicas whose fit has ended out of the model at each read-back: the others go on
   * in a model of their rows only (weights, optimiser statistics, stopping state and multipliers
   * carried over), so that a step costs only what the replicas still training cost. The results
   * are the same (each replica's own, as always); the history holds NaN for a replica after its
   * fit ended. Worth it when replicas end at very different epochs, as a scan's trials do. Not
   * with `checkpoint` nor a custom preprocessing layer.
   */
  readonly retireEndedReplicas?: boolean;
  /**
   * With `retireEndedReplicas`: asked whenever some replicas' fit ends, which replicas still
   * training stop with them (their state, best weights included, that of this epoch; their stop
   * epoch this one). A scan stops a trial's later folds once one of its folds ends above the
   * threshold.
   */
  readonly stopAlongside?: (ended: EndingReplicas) => Promise<readonly number[]>;
  /**
   * The weights each model row starts from instead of its random initialisation (n3fit's
   * `load`; see `readStartingWeights`), in row order. A checkpoint resumed from overrides them.
   */
  readonly startingWeights?: readonly ReplicaParameters[];
}

/** Replicas whose fit has just ended, alone with their best weights (see `stopAlongside`). */
export interface EndingReplicasResult {
  /** A model of the ended replicas alone, holding their best weights: row k is `rows[k]`. */
  readonly model: ReplicaPdfModel;
  /** Their objective. */
  readonly objective: FitObjective;
  /** Their inputs. */
  readonly inputs: FitInputs;
  /** Their stopping state. */
  readonly stopping: StoppingSnapshot;
  /** Their χ² per point with their best weights. */
  readonly chi2PerPoint: TrainingResult['chi2PerPoint'];
}

/** The replicas whose fit ended at a read-back, and those going on (rows of the model). */
export interface EndingReplicas {
  /** The rows whose fit ended. */
  readonly rows: readonly number[];
  /** The rows still training. */
  readonly training: readonly number[];
  /** Epochs done. */
  readonly epoch: number;
  /** Runs `look` on the ended rows alone with their best weights, disposed afterwards. */
  inspect<T>(look: (result: EndingReplicasResult) => Promise<T>): Promise<T>;
}

/** What the fit looks like at a read-back. */
export interface TrainingProgress {
  /** Epochs done. */
  readonly epoch: number;
  /** Of `parameters.epochs`. */
  readonly epochs: number;
  /** Replicas that have neither stopped nor done their own epochs. */
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
  /**
   * The epoch at which each replica's own fit ended, `(replicas)` ({@link replicaFitEnds}): what
   * `epochsRun` would be for that replica fitted alone. The model trains every replica until the
   * last of them ends; a replica past its own `epochs` (`parameters_per_replica`,
   * `trial_specs`) is frozen, so its results are those of its own fit.
   */
  readonly replicaEpochs: Int32Array;
  /** Stopping state at the end. */
  readonly stopping: StoppingSnapshot;
  /** χ² per point of each replica with its best weights: training, validation, experimental. */
  readonly chi2PerPoint: {
    training: Float64Array;
    validation: Float64Array;
    experimental: Float64Array;
  };
  /**
   * Each `log_every` epochs, and at every replica's last epoch: the epoch and every replica's
   * training and validation χ²/n (`replicaReadBacks` gives one replica's own).
   */
  readonly history: readonly TrainingHistoryEntry[];
  /** Epochs between two read-backs (`log_every`). */
  readonly logEvery: number;
  /** Wall time of the training loop, in seconds (of all runs, when resumed from a checkpoint). */
  readonly seconds: number;
}

/**
 * The model, objective, optimiser and stopping of a fit, freshly initialised from the runcard
 * (the state a checkpoint restores into). The caller disposes them.
 *
 * @param runcard - network, optimiser, stopping and Lagrange settings
 * @param inputs - the fit inputs (replicas, x-grid, datasets)
 * @param integration - the sum rules' integration grid
 * @param modelOptions - the model's options, e.g. a custom preprocessing layer
 * @param startingWeights - the weights each row starts from (`setStartingWeights`), if not its
 *   random initialisation
 */
export function buildTrainingParts(
  runcard: Runcard,
  inputs: FitInputs,
  integration: IntegrationGrid,
  modelOptions: ReplicaPdfModelOptions = {},
  startingWeights?: readonly ReplicaParameters[],
): TrainingParts {
  const { parameters } = runcard;
  const model = new ReplicaPdfModel(
    runcard,
    inputs.replicas,
    inputs.xGrid,
    integration,
    modelOptions,
  );
  if (startingWeights !== undefined) setStartingWeights(model, startingWeights);
  const { methodology } = model;
  const objective = new FitObjective(inputs, lagrangeOptions(runcard, inputs.replicas));
  const optimizerOf = (row: FitParameters) => ({
    name: row.optimizer.optimizer_name,
    learningRate: row.optimizer.learning_rate,
    clipnorm: row.optimizer.clipnorm,
  });
  const optimizer = createReplicaOptimizer(
    methodology.uniform
      ? optimizerOf(methodology.parameters[0] ?? parameters)
      : {
          replicas: methodology.parameters.map(optimizerOf),
          variableRows: model.trainableRows(),
        },
  );
  const epochsDiffer = methodology.epochs.some((epochs) => epochs !== methodology.maxEpochs);
  const stopping = new ReplicaStopping(
    {
      replicas: inputs.replicas.length,
      patience: methodology.uniform ? (methodology.patience[0] ?? 0) : methodology.patience,
      ...(epochsDiffer ? { epochs: methodology.epochs } : {}),
      thresholdChi2: parameters.threshold_chi2,
      delta: parameters.stopping_delta,
      positivityThreshold: parameters.positivity.threshold,
    },
    model.weights(),
    model.weightRows(),
  );
  return { model, objective, optimizer, stopping };
}

function perPoint(chi2: tf.Tensor1D, counts: Int32Array): tf.Tensor1D {
  return tf.div(chi2, tf.tensor1d(Array.from(counts, (count) => Math.max(count, 1))));
}

/** χ² per point of each replica with the model's current weights. */
async function replicaChi2(
  parts: TrainingParts,
  inputs: FitInputs,
): Promise<TrainingResult['chi2PerPoint']> {
  const chi2 = tf.tidy(() => {
    const { training, validation, experimental } = parts.objective.chi2s(parts.model.forward());
    return [
      perPoint(training, inputs.trainingCounts),
      perPoint(validation, parts.objective.validationPoints),
      tf.div(experimental, inputs.ndata),
    ];
  });
  try {
    const [training, validation, experimental] = await Promise.all(
      chi2.map((tensor) => tensor.data()),
    );
    return {
      training: Float64Array.from(training),
      validation: Float64Array.from(validation),
      experimental: Float64Array.from(experimental),
    };
  } finally {
    tf.dispose(chi2);
  }
}

/** Runs `look` on some rows' parts with their best weights restored, then disposes the parts. */
async function inspectAlone<T>(
  alone: { readonly parts: TrainingParts; readonly inputs: FitInputs },
  look: (result: EndingReplicasResult) => Promise<T>,
): Promise<T> {
  const { parts, inputs } = alone;
  try {
    parts.stopping.restoreBestWeights();
    return await look({
      model: parts.model,
      objective: parts.objective,
      inputs,
      stopping: await parts.stopping.snapshot(),
      chi2PerPoint: await replicaChi2(parts, inputs),
    });
  } finally {
    disposeTrainingParts(parts);
  }
}

/**
 * Trains every replica of `inputs` together: each step evaluates the PDF once, computes all
 * observables once, reads the training loss, the validation loss and the penalties off those
 * predictions, takes the gradient of the sum over replicas (replicas do not interact, so each
 * replica's gradient is its own), updates with per-replica clipping, clips the preprocessing
 * exponents, and updates the stopping state — all on the device, under `tf.tidy`. Losses and
 * stopping are read back every `logEvery` steps; multipliers grow every 100 epochs. At the end
 * each replica's best weights are restored.
 *
 * With `checkpoint`, the whole state (a `TrainingCheckpoint`) is written atomically to
 * `checkpoint.file` every `checkpoint.every` epochs and when the training ends, at read-backs;
 * with `resume` as well, the fit continues from that file and ends exactly (bit for bit on the
 * same backend) as an uninterrupted run would.
 *
 * @throws InvalidArgumentError for a `logEvery` or `checkpoint.every` that is not a positive
 *   integer, or `resume` without `checkpoint`
 * @throws InputFileError naming the checkpoint file when resuming from a missing or malformed
 *   one; CheckpointMismatchError when it belongs to another runcard or other replicas;
 *   TrainingInterruptedError when `signal` was aborted (after writing the checkpoint)
 */
export async function trainReplicas(
  runcard: Runcard,
  inputs: FitInputs,
  options: TrainingOptions = {},
): Promise<TrainingResult> {
  const start = performance.now();
  const { checkpoint, resume = false } = options;
  if (resume !== false && checkpoint === undefined) {
    throw new InvalidArgumentError({
      argument: 'resume',
      problem: 'resuming needs the checkpoint file (the checkpoint option)',
    });
  }
  const retire = options.retireEndedReplicas === true;
  if (options.stopAlongside !== undefined && !retire) {
    throw new InvalidArgumentError({
      argument: 'stopAlongside',
      problem:
        'replicas stop alongside others only when ended replicas retire (retireEndedReplicas)',
    });
  }
  if (retire && (checkpoint !== undefined || options.model?.preprocessing !== undefined)) {
    throw new InvalidArgumentError({
      argument: 'retireEndedReplicas',
      problem:
        checkpoint === undefined
          ? 'a custom preprocessing layer holds every replica and cannot move to a smaller model'
          : 'a checkpoint holds one model of every replica: retire ended replicas without it',
    });
  }
  const fingerprint = options.fingerprint ?? runFingerprint(runcard, inputs.replicas, inputs);
  const integration = options.integrationGrid ?? gaussIntegrationGrid(100);
  const parts = buildTrainingParts(
    runcard,
    inputs,
    integration,
    options.model,
    options.startingWeights,
  );
  const { methodology } = parts.model;
  const settings: LoopSettings = {
    epochs: methodology.maxEpochs,
    fingerprint,
    logEvery: positiveInteger(options.logEvery ?? 100, 'logEvery'),
    checkpoint:
      checkpoint === undefined
        ? undefined
        : {
            file: checkpoint.file,
            every: positiveInteger(checkpoint.every ?? CHECKPOINT_EVERY, 'checkpoint.every'),
          },
    onProgress: options.onProgress,
    signal: options.signal,
    start,
  };
  try {
    let resumed: TrainingLoopState = { epoch: 0, seconds: 0, history: [] };
    if (resume !== false && checkpoint !== undefined) {
      const saved = resume === true ? await readCheckpoint(checkpoint.file, fingerprint) : resume;
      if (resume !== true) checkCheckpointInputs(checkpoint.file, saved, fingerprint);
      restoreCheckpoint(checkpoint.file, saved, parts);
      resumed = { epoch: saved.epoch, seconds: saved.seconds, history: saved.history };
    }
    const { stopAlongside } = options;
    const loop = retire
      ? await runRetiringReplicas(
          parts,
          inputs,
          settings,
          (rows, rowInputs) =>
            buildTrainingParts(runcard, rowInputs, integration, {
              ...options.model,
              ...(options.model?.networkSeeds === undefined
                ? {}
                : { networkSeeds: rows.map((row) => options.model?.networkSeeds?.[row] ?? 0) }),
            }),
          stopAlongside &&
            (({ alone, ...ended }) =>
              stopAlongside({ ...ended, inspect: (look) => inspectAlone(alone(), look) })),
        )
      : await runEpochs(parts, inputs, settings, resumed);
    parts.stopping.restoreBestWeights();
    return {
      model: parts.model,
      objective: parts.objective,
      epochsRun: loop.epochsRun,
      replicaEpochs: Int32Array.from(
        replicaFitEnds(loop.snapshot.stopEpoch, methodology.epochs, settings.logEvery),
        (end) => Math.min(end, loop.epochsRun),
      ),
      stopping: loop.snapshot,
      chi2PerPoint: await replicaChi2(parts, inputs),
      history: loop.history,
      logEvery: settings.logEvery,
      seconds: loop.seconds,
    };
  } catch (error) {
    parts.objective.dispose();
    parts.model.dispose();
    throw error;
  } finally {
    parts.stopping.dispose();
    parts.optimizer.dispose();
  }
}
