import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { InputFileError, type Runcard } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import { gaussIntegrationGrid } from '@partonfit/layers';
import { beforeAll, expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { buildTrainingParts, trainReplicas } from './train-replicas.js';
import { closureInputs, smallClosureRuncard } from './training.fixture.js';
import { readCheckpoint } from '../checkpoint/checkpoint-file.js';
import { runFingerprint } from '../checkpoint/run-fingerprint.js';
import type { TrainingCheckpoint } from '../checkpoint/training-checkpoint.js';
import { captureCheckpoint, restoreCheckpoint, type TrainingParts } from './training-state.js';

const REPLICAS = [2, 5];

function disposeParts(parts: TrainingParts): void {
  parts.stopping.dispose();
  parts.optimizer.dispose();
  parts.objective.dispose();
  parts.model.dispose();
}

describeOnBackends('captureCheckpoint and restoreCheckpoint', () => {
  let runcard: Runcard;
  let inputs: FitInputs;
  let file: string;
  let saved: TrainingCheckpoint;
  const build = () => buildTrainingParts(runcard, inputs, gaussIntegrationGrid(100));

  beforeAll(async () => {
    const small = await smallClosureRuncard({
      datasets: ['CLOSURE_F2P', 'CLOSURE_XG'],
      epochs: 30,
    });
    // Thresholds out of the way, so that the replicas have best epochs to save.
    const { parameters } = small;
    runcard = {
      ...small,
      parameters: {
        ...parameters,
        threshold_chi2: 1e6,
        positivity: { ...parameters.positivity, threshold: 1e9 },
      },
    };
    inputs = await closureInputs(runcard, REPLICAS);
    file = join(await mkdtemp(join(tmpdir(), 'partonfit-state-')), 'checkpoint.h5');
    const result = await trainReplicas(runcard, inputs, {
      logEvery: 10,
      checkpoint: { file, every: 20 },
    });
    result.objective.dispose();
    result.model.dispose();
    saved = await readCheckpoint(file, runFingerprint(runcard, REPLICAS));
  });

  it('should put back exactly the state it was taken from, leaving no tensors behind', async () => {
    const before = tf.memory().numTensors;
    const parts = build();
    const fresh = await captureCheckpoint(parts, saved.fingerprint, saved);
    restoreCheckpoint(file, saved, parts);
    const restored = await captureCheckpoint(parts, saved.fingerprint, saved);
    expect(restored).toEqual(saved);
    // A fresh fit differs: restoring did change every part.
    expect(fresh.weights).not.toEqual(saved.weights);
    expect(fresh.optimizer.step).toBe(0);
    expect(fresh.stopping.bestEpoch).not.toEqual(saved.stopping.bestEpoch);
    // No multiplier grew in 30 epochs: set others to see them restored.
    const multipliers = new Map(
      [...saved.multipliers].map(([name, lambda], i) => [
        name,
        lambda.map((value) => value * (2 + i)),
      ]),
    );
    restoreCheckpoint(file, { ...saved, multipliers }, parts);
    expect(await parts.objective.multipliers()).toEqual(multipliers);
    expect(multipliers).not.toEqual(saved.multipliers);
    disposeParts(parts);
    expect(tf.memory().numTensors).toBe(before);
  });

  it.each([
    [
      'weights/network/kernel_9',
      'the model has no such weight',
      (checkpoint: TrainingCheckpoint): TrainingCheckpoint => ({
        ...checkpoint,
        weights: new Map([
          ...checkpoint.weights,
          ['network/kernel_9', { shape: [2, 1], data: new Float32Array(2) }],
        ]),
      }),
    ],
    [
      'stopping/best_weights/network/bias_1',
      'missing from the checkpoint',
      (checkpoint: TrainingCheckpoint): TrainingCheckpoint => {
        const bestWeights = new Map(checkpoint.stopping.bestWeights);
        bestWeights.delete('network/bias_1');
        return { ...checkpoint, stopping: { ...checkpoint.stopping, bestWeights } };
      },
    ],
    [
      'optimizer/velocity/network/kernel_0',
      'expected shape [2, 2, 25]',
      (checkpoint: TrainingCheckpoint): TrainingCheckpoint => {
        const velocity = new Map(checkpoint.optimizer.slots.get('velocity'));
        velocity.set('network/kernel_0', { shape: [2, 25], data: new Float32Array(50) });
        const slots = new Map([...checkpoint.optimizer.slots, ['velocity', velocity]]);
        return { ...checkpoint, optimizer: { ...checkpoint.optimizer, slots } };
      },
    ],
    [
      'optimizer',
      'written by a Adam optimiser, this fit uses Nadam',
      (checkpoint: TrainingCheckpoint): TrainingCheckpoint => ({
        ...checkpoint,
        optimizer: { ...checkpoint.optimizer, name: 'Adam' },
      }),
    ],
    [
      'lagrange',
      'missing [positivity/CLOSURE_POS_XG]',
      (checkpoint: TrainingCheckpoint): TrainingCheckpoint => {
        const multipliers = new Map(checkpoint.multipliers);
        multipliers.delete('positivity/CLOSURE_POS_XG');
        return { ...checkpoint, multipliers };
      },
    ],
  ])('should name the entry %s that does not fit the fit', (key, problem, edit) => {
    const before = tf.memory().numTensors;
    const parts = build();
    let error: unknown;
    try {
      restoreCheckpoint(file, edit(saved), parts);
    } catch (thrown) {
      error = thrown;
    }
    expect(InputFileError.isInstance(error)).toBe(true);
    expect((error as InputFileError).file).toBe(file);
    expect((error as InputFileError).key).toBe(key);
    expect((error as Error).message).toContain(problem);
    disposeParts(parts);
    expect(tf.memory().numTensors).toBe(before);
  });
});
