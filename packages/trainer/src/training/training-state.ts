import * as tf from '@tensorflow/tfjs-core';
import { InputFileError, PartonfitError } from '@partonfit/core';
import type { NamedWeight, ReplicaPdfModel } from '../model/pdf-model.js';
import type { ReplicaOptimizerState } from '../optimizers/optimizer-state.js';
import type { ReplicaOptimizer } from '../optimizers/replica-optimizer.js';
import {
  STOPPING_STATE_KEYS,
  type ReplicaStopping,
  type ReplicaStoppingState,
} from '../stopping/replica-stopping.js';
import type { FitObjective } from './fit-objective.js';
import type { RunFingerprint } from '../checkpoint/run-fingerprint.js';
import type {
  CheckpointArray,
  TrainingCheckpoint,
  TrainingHistoryEntry,
} from '../checkpoint/training-checkpoint.js';

/**
 * The objects of a fit whose state a checkpoint holds. The stopping must track
 * `model.weights()` (in that order) and the optimiser must train `model.trainableVariables()`.
 */
export interface TrainingParts {
  readonly model: ReplicaPdfModel;
  readonly optimizer: ReplicaOptimizer;
  readonly stopping: ReplicaStopping;
  readonly objective: FitObjective;
}

/** Frees everything the parts hold: model, objective, optimiser statistics and stopping state. */
export function disposeTrainingParts(parts: TrainingParts): void {
  parts.stopping.dispose();
  parts.optimizer.dispose();
  parts.objective.dispose();
  parts.model.dispose();
}

/** What the training loop itself keeps on the host. */
export interface TrainingLoopState {
  /** Epochs done. */
  readonly epoch: number;
  /** Wall time of the training so far, in seconds. */
  readonly seconds: number;
  /** The read-backs so far. */
  readonly history: readonly TrainingHistoryEntry[];
}

async function arrayOf(tensor: tf.Tensor): Promise<CheckpointArray> {
  return { shape: [...tensor.shape], data: Float32Array.from(await tensor.data()) };
}

async function arraysByName(
  names: readonly string[],
  tensors: readonly tf.Tensor[],
): Promise<Map<string, CheckpointArray>> {
  const arrays = await Promise.all(tensors.map(arrayOf));
  return new Map(arrays.map((array, i) => [names[i], array]));
}

/** The names of the optimiser's variables, `model.trainableVariables()`, as the model names them. */
function trainableNames(model: ReplicaPdfModel, named: readonly NamedWeight[]): string[] {
  const nameOf = new Map(named.map(({ name, variable }) => [variable, name]));
  return model.trainableVariables().map((variable) => nameOf.get(variable) ?? variable.name);
}

/**
 * Reads the whole training state back from the device into a checkpoint (a host sync: call it
 * at a read-back). Frees every copy it makes.
 *
 * @param parts - the model, optimiser, stopping and objective of the fit
 * @param fingerprint - the fit's fingerprint
 * @param loop - the epoch, time and history of the loop
 */
export async function captureCheckpoint(
  parts: TrainingParts,
  fingerprint: RunFingerprint,
  loop: TrainingLoopState,
): Promise<TrainingCheckpoint> {
  const named = parts.model.namedWeights();
  const names = named.map(({ name }) => name);
  const trainable = trainableNames(parts.model, named);
  const optimizerState = parts.optimizer.state();
  const stoppingState = parts.stopping.state();
  try {
    const [weights, slots, perReplica, bestWeights, multipliers] = await Promise.all([
      arraysByName(
        names,
        named.map(({ variable }) => variable),
      ),
      Promise.all(
        Object.entries(optimizerState.slots).map(
          async ([slot, tensors]) => [slot, await arraysByName(trainable, tensors)] as const,
        ),
      ),
      Promise.all(STOPPING_STATE_KEYS.map(async (key) => (await arrayOf(stoppingState[key])).data)),
      arraysByName(names, stoppingState.bestWeights),
      parts.objective.multipliers(),
    ]);
    const stopping = Object.fromEntries(
      STOPPING_STATE_KEYS.map((key, i) => [key, perReplica[i]]),
    ) as Record<(typeof STOPPING_STATE_KEYS)[number], Float32Array>;
    return {
      fingerprint,
      epoch: loop.epoch,
      seconds: loop.seconds,
      weights,
      optimizer: {
        name: optimizerState.optimizer,
        step: optimizerState.step,
        slots: new Map(slots),
      },
      stopping: { ...stopping, bestWeights },
      multipliers,
      history: loop.history.map((entry) => ({
        epoch: entry.epoch,
        training: Float32Array.from(entry.training),
        validation: Float32Array.from(entry.validation),
      })),
    };
  } finally {
    tf.dispose(Object.values(optimizerState.slots).flat());
    tf.dispose([
      ...STOPPING_STATE_KEYS.map((key) => stoppingState[key]),
      ...stoppingState.bestWeights,
    ]);
  }
}

/** Checks that `arrays` holds exactly the weights `expected`, each of its weight's shape. */
function checkWeights(
  group: string,
  arrays: ReadonlyMap<string, CheckpointArray>,
  expected: readonly { readonly name: string; readonly shape: readonly number[] }[],
  fail: (key: string, problem: string) => InputFileError,
): void {
  const names = new Set(expected.map(({ name }) => name));
  const unknown = [...arrays.keys()].find((name) => !names.has(name));
  if (unknown !== undefined) {
    throw fail(`${group}/${unknown}`, 'the model has no such weight');
  }
  for (const { name, shape } of expected) {
    const array = arrays.get(name);
    if (array === undefined) throw fail(`${group}/${name}`, 'missing from the checkpoint');
    if (!tf.util.arraysEqual([...array.shape], [...shape])) {
      throw fail(
        `${group}/${name}`,
        `expected shape [${shape.join(', ')}], got [${array.shape.join(', ')}]`,
      );
    }
  }
}

function tensorOf(array: CheckpointArray): tf.Tensor {
  return tf.tensor(array.data, [...array.shape], 'float32');
}

/** The optimiser's statistics as tensors, in the order of the trainable variables. */
function optimizerSlots(
  checkpoint: TrainingCheckpoint,
  parts: TrainingParts,
  trainable: readonly { readonly name: string; readonly shape: readonly number[] }[],
  fail: (key: string, problem: string) => InputFileError,
): Record<string, readonly CheckpointArray[]> {
  const { slotNames, name: optimizer } = parts.optimizer;
  const { name, step, slots } = checkpoint.optimizer;
  if (name !== optimizer) {
    throw fail('optimizer', `written by a ${name} optimiser, this fit uses ${optimizer}`);
  }
  const unknown = [...slots.keys()].find((slot) => !slotNames.includes(slot));
  if (unknown !== undefined) {
    throw fail(`optimizer/${unknown}`, `${optimizer} keeps no such statistic`);
  }
  return Object.fromEntries(
    slotNames.map((slot) => {
      const arrays = slots.get(slot) ?? new Map<string, CheckpointArray>();
      // Before the first update the optimiser has no statistics yet.
      if (arrays.size === 0 && step === 0) return [slot, []];
      checkWeights(`optimizer/${slot}`, arrays, trainable, fail);
      return [slot, trainable.map((weight) => arrays.get(weight.name) as CheckpointArray)];
    }),
  );
}

/** Runs `restore`, reporting the checks it makes as problems of the checkpoint file. */
function asFileProblem(key: string, fail: FailWithCause, restore: () => void): void {
  try {
    restore();
  } catch (error) {
    if (!PartonfitError.isInstance(error)) throw error;
    throw fail(key, error.message, error);
  }
}

type FailWithCause = (key: string, problem: string, cause?: unknown) => InputFileError;

/**
 * Puts a checkpoint's state into a freshly built fit: model weights, optimiser statistics and
 * step, stopping state and Lagrange multipliers. The names and shapes of the weights and
 * statistics are checked against the fit before anything is assigned; the tensors it makes are
 * freed. After an error the parts are in an undefined state: dispose them.
 *
 * @param file - the checkpoint file, for error messages
 * @param checkpoint - read with {@link readCheckpoint}
 * @param parts - the fit's model, optimiser, stopping and objective, as built for this runcard
 * @throws InputFileError naming the file and the entry that does not fit the model, the
 *   optimiser, the stopping or the positivity and integrability sets
 */
export function restoreCheckpoint(
  file: string,
  checkpoint: TrainingCheckpoint,
  parts: TrainingParts,
): void {
  const fail: FailWithCause = (key, problem, cause) =>
    new InputFileError({ file, key, problem, cause });
  const named = parts.model.namedWeights();
  const shapes = named.map(({ name, variable }) => ({ name, shape: variable.shape }));
  checkWeights('weights', checkpoint.weights, shapes, fail);
  checkWeights('stopping/best_weights', checkpoint.stopping.bestWeights, shapes, fail);
  const trainable = trainableNames(parts.model, named).map(
    (name) => shapes.find((weight) => weight.name === name) ?? { name, shape: [] },
  );
  const slots = optimizerSlots(checkpoint, parts, trainable, fail);

  tf.tidy(() => {
    for (const { name, variable } of named) {
      variable.assign(tensorOf(checkpoint.weights.get(name) as CheckpointArray));
    }
  });
  const optimizerState: ReplicaOptimizerState = {
    optimizer: parts.optimizer.name,
    step: checkpoint.optimizer.step,
    slots: Object.fromEntries(
      Object.entries(slots).map(([slot, arrays]) => [slot, arrays.map(tensorOf)]),
    ),
  };
  const { stopping } = checkpoint;
  const replicas = parts.stopping.settings.replicas;
  const perReplica = (data: Float32Array) => tf.tensor1d(data, 'float32');
  const stoppingState: ReplicaStoppingState = {
    bestValidation: perReplica(stopping.bestValidation),
    bestEpoch: perReplica(stopping.bestEpoch),
    stopEpoch: perReplica(stopping.stopEpoch),
    waiting: perReplica(stopping.waiting),
    counting: perReplica(stopping.counting),
    failed: perReplica(stopping.failed),
    bestWeights: named.map(({ name }) =>
      tensorOf(stopping.bestWeights.get(name) as CheckpointArray),
    ),
  };
  try {
    asFileProblem('optimizer', fail, () => {
      parts.optimizer.restore(optimizerState);
    });
    asFileProblem(`stopping (${replicas} replicas)`, fail, () => {
      parts.stopping.restore(stoppingState);
    });
    asFileProblem('lagrange', fail, () => {
      parts.objective.setMultipliers(checkpoint.multipliers);
    });
  } finally {
    tf.dispose(Object.values(optimizerState.slots).flat());
    tf.dispose([
      ...STOPPING_STATE_KEYS.map((key) => stoppingState[key]),
      ...stoppingState.bestWeights,
    ]);
  }
}
