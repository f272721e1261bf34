import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { InputFileError, InvalidArgumentError, type Runcard } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import type { FitInputs } from '@partonfit/fktables';
import { beforeAll, describe, expect, it } from 'vitest';
import { lagrangeMultiplierAt, lagrangeSchedule } from '../lagrange/lagrange-schedule.js';
import { describeOnBackends } from '@partonfit/testing';
import {
  trainReplicas,
  type TrainingOptions,
  type TrainingResult,
} from '../training/train-replicas.js';
import { TrainingInterruptedError } from '../training/training-interrupted-error.js';
import { closureInputs, smallClosureRuncard } from '../training/training.fixture.js';
import { CheckpointMismatchError } from './checkpoint-mismatch-error.js';
import { readCheckpoint } from './checkpoint-file.js';
import { replicaTrainingOrder } from '../methodology/replica-methodology.js';
import { runFingerprint } from './run-fingerprint.js';

const DATASETS = ['CLOSURE_F2P', 'CLOSURE_F2D', 'CLOSURE_NU_XF3', 'CLOSURE_XG'];
const REPLICAS = [1, 2, 3];

/**
 * The closure runcard cut to four datasets and `epochs`, with trainable exponents for every
 * other flavour (so the optimiser and the clipping act on the preprocessing), a gently growing
 * positivity multiplier, the χ² and positivity thresholds out of the way, a learning rate and
 * patience with which, in 120 epochs, replica 2 stops (at about 106, its best epoch 75) while
 * replica 1 trains to the end with its best epoch after 90 (on native replica 3 trains to the end
 * too; on cpu and wasm it stops at about 111).
 */
async function checkpointRuncard(epochs: number): Promise<Runcard> {
  const runcard = await smallClosureRuncard({
    datasets: DATASETS,
    epochs,
    optimizer: { optimizer_name: 'Nadam', learning_rate: 0.01, clipnorm: 1e-3 },
  });
  const { parameters } = runcard;
  return {
    ...runcard,
    parameters: {
      ...parameters,
      threshold_chi2: 1e6,
      stopping_patience: 0.25,
      stopping_delta: 5,
      positivity: { ...parameters.positivity, multiplier: 1.5, threshold: 1e9 },
    },
    fitting: {
      ...runcard.fitting,
      basis: runcard.fitting.basis.map((flavour, f) => ({ ...flavour, trainable: f % 2 === 0 })),
    },
  };
}

async function freshCheckpointFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'partonfit-checkpoint-')), 'checkpoint.h5');
}

/** Every model weight's values, by the model's stable names. */
async function weightValues(result: TrainingResult): Promise<Map<string, Float32Array>> {
  const named = result.model.namedWeights();
  const values = await Promise.all(named.map(({ variable }) => variable.data()));
  return new Map(named.map(({ name }, i) => [name, Float32Array.from(values[i])]));
}

function dispose(result: TrainingResult): void {
  result.objective.dispose();
  result.model.dispose();
}

/** Runs a fit that dies (an error thrown from the progress callback) at epoch `killAt`. */
async function killedRun(
  runcard: Runcard,
  inputs: FitInputs,
  options: TrainingOptions,
  killAt: number,
): Promise<void> {
  await expect(
    trainReplicas(runcard, inputs, {
      ...options,
      onProgress: (progress) => {
        if (progress.epoch === killAt) throw new Error(`killed at epoch ${killAt}`);
      },
    }),
  ).rejects.toThrow(`killed at epoch ${killAt}`);
}

describeOnBackends('trainReplicas: checkpoints and resume', () => {
  let runcard: Runcard;
  let inputs: FitInputs;

  beforeAll(async () => {
    runcard = await checkpointRuncard(120);
    inputs = await closureInputs(runcard, REPLICAS);
  });

  it('should end a fit killed after its first checkpoint exactly like an uninterrupted one', async () => {
    const file = await freshCheckpointFile();
    const options = { logEvery: 10, checkpoint: { file, every: 90 } };
    const uninterrupted = await trainReplicas(runcard, inputs, { logEvery: 10 });

    // Dies at epoch 100: the checkpoint of epoch 90 is on disk, epochs 90–100 are lost.
    await killedRun(runcard, inputs, options, 100);
    const saved = await readCheckpoint(file, runFingerprint(runcard, REPLICAS));
    expect(saved.epoch).toBe(90);
    expect(saved.history.map((entry) => entry.epoch)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    // λ is saved as the schedule has it at epoch 90.
    const schedule = lagrangeSchedule({
      initial: 10,
      multiplier: 1.5,
      maxLambda: 1e6,
      epochs: 120,
    });
    for (const [name, lambda] of saved.multipliers) {
      expect(name).toMatch(/^positivity\/CLOSURE_POS_/);
      expect(lambda).toHaveLength(1);
      expect(lambda[0] / lagrangeMultiplierAt(schedule, 90)).toBeCloseTo(1, 6);
    }
    expect(saved.multipliers.size).toBe(4);
    expect(saved.optimizer.step).toBe(90);

    const resumed = await trainReplicas(runcard, inputs, { ...options, resume: true });
    expect(resumed.epochsRun).toBe(uninterrupted.epochsRun);
    expect(resumed.stopping).toEqual(uninterrupted.stopping);
    expect(resumed.chi2PerPoint).toEqual(uninterrupted.chi2PerPoint);
    expect(resumed.history).toEqual(uninterrupted.history);
    expect(await weightValues(resumed)).toEqual(await weightValues(uninterrupted));
    // Not a trivial continuation: best weights from before the checkpoint (restored from it) and
    // after it; a replica that stopped after it and one that trained to the end.
    const bestEpoch = Array.from(uninterrupted.stopping.bestEpoch);
    const stopEpoch = Array.from(uninterrupted.stopping.stopEpoch);
    expect(bestEpoch.some((epoch) => epoch >= 0 && epoch < 90)).toBe(true);
    expect(bestEpoch.some((epoch) => epoch >= 90)).toBe(true);
    expect(stopEpoch.some((epoch) => epoch >= 90)).toBe(true);
    expect(stopEpoch.some((epoch) => epoch < 0)).toBe(true);

    // The resumed run wrote a last checkpoint when it ended: resuming from that trains no
    // further and gives the same fit again.
    expect((await readCheckpoint(file, runFingerprint(runcard, REPLICAS))).epoch).toBe(120);
    const again = await trainReplicas(runcard, inputs, { ...options, resume: true });
    expect(again.epochsRun).toBe(120);
    expect(again.chi2PerPoint).toEqual(uninterrupted.chi2PerPoint);
    expect(await weightValues(again)).toEqual(await weightValues(uninterrupted));
    for (const result of [uninterrupted, resumed, again]) dispose(result);
  });

  it('should write the checkpoint at once when interrupted mid-interval, and resume exactly', async () => {
    const file = await freshCheckpointFile();
    const options = { logEvery: 10, checkpoint: { file, every: 1000 } };
    const uninterrupted = await trainReplicas(runcard, inputs, { logEvery: 10 });
    const controller = new AbortController();
    // A signal handler that fires while the loop runs: a chain of event-loop turns.
    let turns = 0;
    const tick = () => {
      if (++turns === 55) controller.abort('SIGTERM');
      else setImmediate(tick);
    };
    setImmediate(tick);
    const error: unknown = await trainReplicas(runcard, inputs, {
      ...options,
      signal: controller.signal,
    }).catch((thrown: unknown) => thrown);
    expect(TrainingInterruptedError.isInstance(error)).toBe(true);
    const { epoch, checkpointFile, message } = error as TrainingInterruptedError;
    expect(checkpointFile).toBe(file);
    expect(message).toBe(
      `training interrupted (SIGTERM) after ${epoch} epochs; checkpoint written to ${file}: continue with --resume`,
    );
    // Between two read-backs and long before the checkpoint every 1,000 epochs.
    expect(epoch).toBeGreaterThan(40);
    expect(epoch).toBeLessThan(70);
    expect(epoch % 10).not.toBe(0);
    const saved = await readCheckpoint(file, runFingerprint(runcard, REPLICAS));
    expect(saved.epoch).toBe(epoch);
    expect(saved.optimizer.step).toBe(epoch);
    const resumed = await trainReplicas(runcard, inputs, { ...options, resume: true });
    expect(resumed.stopping).toEqual(uninterrupted.stopping);
    expect(resumed.history).toEqual(uninterrupted.history);
    expect(resumed.chi2PerPoint).toEqual(uninterrupted.chi2PerPoint);
    expect(await weightValues(resumed)).toEqual(await weightValues(uninterrupted));
    for (const result of [uninterrupted, resumed]) dispose(result);
  });

  it('should leave no tensors behind when saving, restoring and failing', async () => {
    const file = await freshCheckpointFile();
    const short = await checkpointRuncard(40);
    const options = { logEvery: 10, checkpoint: { file, every: 20 } };
    dispose(await trainReplicas(short, inputs, options));
    const before = tf.memory().numTensors;
    await killedRun(short, inputs, options, 30);
    expect(tf.memory().numTensors).toBe(before);
    dispose(await trainReplicas(short, inputs, { ...options, resume: true }));
    expect(tf.memory().numTensors).toBe(before);
    const other = { ...short, nnseed: short.nnseed + 1 };
    await expect(trainReplicas(other, inputs, { ...options, resume: true })).rejects.toThrow(
      CheckpointMismatchError,
    );
    expect(tf.memory().numTensors).toBe(before);
  });
});

describeOnBackends('trainReplicas: checkpoints of replicas with their own hyperparameters', () => {
  it('should resume a heterogeneous fit bit for bit: padded groups, two optimisers, λ and epochs per replica', async () => {
    const base = await checkpointRuncard(120);
    const { parameters } = base;
    const runcard: Runcard = {
      ...base,
      parameters_per_replica: [
        parameters,
        { ...parameters, nodes_per_layer: [12, 9, 8], epochs: 90 },
        {
          ...parameters,
          nodes_per_layer: [16, 8],
          activation_per_layer: ['sigmoid', 'linear'],
          optimizer: { optimizer_name: 'Adam', learning_rate: 4e-3, clipnorm: 2e-3 },
          positivity: { ...parameters.positivity, initial: 3, multiplier: 1.2 },
        },
        { ...parameters, optimizer: { ...parameters.optimizer, learning_rate: 2e-3 } },
      ],
    };
    const replicas = replicaTrainingOrder(runcard, [1, 2, 3, 4]);
    expect(replicas).toEqual([1, 2, 4, 3]);
    const inputs = await closureInputs(runcard, replicas);
    const file = await freshCheckpointFile();
    const options = { logEvery: 10, checkpoint: { file, every: 50 } };
    const uninterrupted = await trainReplicas(runcard, inputs, { logEvery: 10 });
    await killedRun(runcard, inputs, options, 80);
    const saved = await readCheckpoint(file, runFingerprint(runcard, replicas));
    expect(saved.epoch).toBe(50);
    // Adam's and Nadam's rows are one kind of update, with statistics of every row
    expect(saved.optimizer.name).toBe('Nadam+Adam');
    expect([...saved.optimizer.slots.keys()].sort()).toEqual(['momentum', 'velocity']);
    expect(saved.weights.get('network_0/kernel_1')?.shape).toEqual([3, 25, 20]);
    expect(saved.weights.get('network_1/kernel_0')?.shape).toEqual([1, 2, 16]);
    expect([...saved.multipliers.values()].every((lambda) => lambda.length === 4)).toBe(true);
    const resumed = await trainReplicas(runcard, inputs, { ...options, resume: true });
    expect(resumed.epochsRun).toBe(uninterrupted.epochsRun);
    expect(Array.from(resumed.replicaEpochs)).toEqual(Array.from(uninterrupted.replicaEpochs));
    expect(uninterrupted.replicaEpochs[1]).toBe(90);
    expect(resumed.stopping).toEqual(uninterrupted.stopping);
    expect(resumed.chi2PerPoint).toEqual(uninterrupted.chi2PerPoint);
    expect(resumed.history).toEqual(uninterrupted.history);
    expect(await weightValues(resumed)).toEqual(await weightValues(uninterrupted));
    expect(await resumed.objective.multipliers()).toEqual(
      await uninterrupted.objective.multipliers(),
    );
    for (const result of [uninterrupted, resumed]) dispose(result);
  });
});

describe('trainReplicas: resuming from the wrong checkpoint', () => {
  let runcard: Runcard;
  let inputs: FitInputs;
  let file: string;

  beforeAll(async () => {
    await initBackend('cpu');
    runcard = await checkpointRuncard(20);
    inputs = await closureInputs(runcard, [1, 2]);
    file = await freshCheckpointFile();
    dispose(
      await trainReplicas(runcard, inputs, { logEvery: 10, checkpoint: { file, every: 10 } }),
    );
  });

  it('should refuse a checkpoint of another runcard, naming the file', async () => {
    const other = { ...runcard, parameters: { ...runcard.parameters, epochs: 30 } };
    const error: unknown = await trainReplicas(other, inputs, {
      checkpoint: { file },
      resume: true,
    }).catch((thrown: unknown) => thrown);
    expect(CheckpointMismatchError.isInstance(error)).toBe(true);
    expect(InputFileError.isInstance(error)).toBe(true);
    expect((error as CheckpointMismatchError).file).toBe(file);
    expect((error as CheckpointMismatchError).key).toBe('runcard_sha256');
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('belongs to another fit');
  });

  it('should refuse a checkpoint of other replicas, naming them', async () => {
    const others = await closureInputs(runcard, [1, 3]);
    const error: unknown = await trainReplicas(runcard, others, {
      checkpoint: { file },
      resume: true,
    }).catch((thrown: unknown) => thrown);
    expect(CheckpointMismatchError.isInstance(error)).toBe(true);
    expect((error as CheckpointMismatchError).key).toBe('replicas');
    expect((error as Error).message).toContain('it has replicas 1-2, this fit has replicas 1,3');
  });

  it('should report a missing checkpoint, and resuming without one', async () => {
    const missing = join(tmpdir(), 'partonfit-no-such-folder', 'checkpoint.h5');
    const error: unknown = await trainReplicas(runcard, inputs, {
      checkpoint: { file: missing },
      resume: true,
    }).catch((thrown: unknown) => thrown);
    expect(InputFileError.isInstance(error)).toBe(true);
    expect((error as InputFileError).file).toBe(missing);
    expect((error as Error).message).toContain('no checkpoint to resume from');
    expect(existsSync(missing)).toBe(false);
    await expect(trainReplicas(runcard, inputs, { resume: true })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(
      trainReplicas(runcard, inputs, { checkpoint: { file, every: 0 } }),
    ).rejects.toThrow('checkpoint.every: expected a positive integer, got 0');
  });
});
