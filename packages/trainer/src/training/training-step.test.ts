import * as tf from '@tensorflow/tfjs-core';
import { gaussIntegrationGrid } from '@partonfit/layers';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { buildTrainingParts, trainReplicas } from './train-replicas.js';
import { closureInputs, smallClosureRuncard } from './training.fixture.js';
import {
  disposeStepLosses,
  trainingStep,
  TrainingSteps,
  type TrainingReadBack,
} from './training-step.js';
import { disposeTrainingParts } from './training-state.js';

const DATASETS = ['CLOSURE_F2P', 'CLOSURE_NU_XF3'];
const REPLICAS = [2, 5];
const EPOCHS = 12;

async function setUp() {
  const runcard = await smallClosureRuncard({
    datasets: DATASETS,
    epochs: EPOCHS,
    optimizer: { optimizer_name: 'Adam', learning_rate: 0.01, clipnorm: 1e-3 },
  });
  return { runcard, inputs: await closureInputs(runcard, REPLICAS) };
}

describeOnBackends(
  'TrainingSteps',
  () => {
    it('should be the step trainReplicas runs: the same χ²/n at every read-back, to the bit', async () => {
      const { runcard, inputs } = await setUp();
      const trained = await trainReplicas(runcard, inputs, { logEvery: 4 });
      const parts = buildTrainingParts(runcard, inputs, gaussIntegrationGrid(100));
      const steps = new TrainingSteps(parts, inputs.trainingCounts, {
        logEvery: 4,
        epochs: EPOCHS,
      });
      const readBacks: TrainingReadBack[] = [];
      for (let epoch = 0; epoch < EPOCHS; epoch++) {
        steps.step(epoch);
        if (steps.endsInterval(epoch)) readBacks.push(await steps.readBack());
      }
      expect(trained.history.map((entry) => entry.epoch)).toEqual([4, 8, 12]);
      expect(readBacks.map((entry) => entry.trainingChi2PerPoint)).toEqual(
        trained.history.map((entry) => entry.training),
      );
      expect(readBacks.map((entry) => entry.validationChi2PerPoint)).toEqual(
        trained.history.map((entry) => entry.validation),
      );
      expect(readBacks[2].stopping).toEqual(trained.stopping);
      // The fit learned: χ²/n fell over the 12 steps for both replicas.
      readBacks[2].trainingChi2PerPoint.forEach((chi2, r) => {
        expect(chi2).toBeLessThan(readBacks[0].trainingChi2PerPoint[r]);
      });
      steps.dispose();
      disposeTrainingParts(parts);
      trained.objective.dispose();
      trained.model.dispose();
    });

    it('should read nothing back and leave no tensor behind between read-backs', async () => {
      const { runcard, inputs } = await setUp();
      const parts = buildTrainingParts(runcard, inputs, gaussIntegrationGrid(100));
      const steps = new TrainingSteps(parts, inputs.trainingCounts, { logEvery: 100 });
      steps.step(0);
      const tensors = tf.memory().numTensors;
      for (let epoch = 1; epoch < 6; epoch++) steps.step(epoch);
      expect(tf.memory().numTensors).toBe(tensors);
      const empty = await steps.readBack();
      expect(empty.trainingChi2PerPoint).toEqual(new Float32Array(0));
      expect(empty.stopping.stopEpoch).toHaveLength(REPLICAS.length);
      steps.dispose();
      disposeTrainingParts(parts);
    });

    it('should let a variant change the forward pass and the losses the stopping sees', async () => {
      const { runcard, inputs } = await setUp();
      const parts = buildTrainingParts(runcard, inputs, gaussIntegrationGrid(100));
      let forwards = 0;
      let seen: number[] = [];
      tf.tidy(() => {
        const losses = trainingStep(parts, 0, {
          forward: () => {
            forwards += 1;
            return parts.objective.losses(parts.model.at(inputs.xGrid));
          },
          stoppingLosses: (kept) => {
            seen = Array.from(kept.validationChi2PerPoint.dataSync());
            return kept;
          },
        });
        expect(losses.training.shape).toEqual([REPLICAS.length]);
        disposeStepLosses(losses);
      });
      expect(forwards).toBe(1);
      expect(seen).toHaveLength(REPLICAS.length);
      seen.forEach((chi2) => {
        expect(chi2).toBeGreaterThan(0);
      });
      expect(() => new TrainingSteps(parts, inputs.trainingCounts, { logEvery: 0 })).toThrow(
        'logEvery: expected a positive integer, got 0',
      );
      disposeTrainingParts(parts);
    });
  },
  ['cpu', 'wasm'],
);
