import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@partonfit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { installReadCounter } from '../instrument/read-counter.js';
import { describeOnBackends } from '@partonfit/testing';
import { fitStyleStep } from './fit-style-step.js';
import { gatheredSplitLosses, gatheredSplitStep, modeSelection } from './gathered-split-step.js';
import { perReplicaModelsStep } from './per-replica-models-step.js';
import { secondPassValidationStep } from './second-pass-validation-step.js';
import { seedStep } from './seed-step.js';
import {
  disposeParts,
  maxDifference,
  replicaSlice,
  TEST_INTEGRATION,
  tensorCount,
  TINY_FIT,
  tinyParts,
  weightValues,
} from './steps.fixture.js';
import type { BenchStep } from './bench-step.js';
import type { TrainingParts } from '@partonfit/trainer';

const { runcard, inputs } = TINY_FIT;

/** Largest weight change of one step is the learning rate (Nadam): differences far below it. */
const SAME_WEIGHTS = 1e-6;

describeOnBackends(
  'seed step',
  () => {
    let parts: TrainingParts | undefined;
    afterEach(() => {
      if (parts !== undefined) disposeParts(parts);
      parts = undefined;
    });

    it('should train, keep the tensors flat and read back only at the end of an interval', async () => {
      parts = tinyParts();
      const step = seedStep(parts, inputs, { logEvery: 2 });
      const initial = weightValues(parts);
      const counter = installReadCounter();
      try {
        await step.run(0);
        const after = tensorCount();
        await step.run(1);
        expect(tensorCount()).toBe(after + 1); // the kept losses of the read-back
        expect(counter.count).toBe(0);
        await step.readBack();
        expect(counter.count).toBe(5); // four stopping arrays and the stacked χ²
        await step.run(2);
        expect(tensorCount()).toBe(after + 1);
      } finally {
        counter.uninstall();
        step.dispose();
      }
      expect(maxDifference(weightValues(parts), initial)).toBeGreaterThan(1e-4);
    });
  },
  ['cpu', 'wasm'],
);

describeOnBackends(
  'naive variants train exactly as the seed step',
  () => {
    const parts: TrainingParts[] = [];
    const steps: BenchStep[] = [];
    afterEach(() => {
      for (const step of steps.splice(0)) step.dispose();
      for (const part of parts.splice(0)) disposeParts(part);
    });

    /** Weights after two seed steps from the initial state. */
    async function seedWeights(): Promise<Float32Array[]> {
      const seed = tinyParts();
      parts.push(seed);
      const step = seedStep(seed, inputs);
      steps.push(step);
      await step.run(0);
      await step.run(1);
      return weightValues(seed);
    }

    it.each([
      ['gathered split', (p: TrainingParts) => gatheredSplitStep(p, inputs)],
      ['second-pass validation', (p: TrainingParts) => secondPassValidationStep(p, inputs)],
      ['fit-style epochs', (p: TrainingParts) => fitStyleStep(p, inputs)],
    ])('should give the seed step’s weights with the %s variant', async (_, build) => {
      const expected = await seedWeights();
      const naiveParts = tinyParts();
      parts.push(naiveParts);
      const naive = build(naiveParts);
      steps.push(naive);
      await naive.run(0);
      await naive.run(1);
      expect(maxDifference(weightValues(naiveParts), expected)).toBeLessThan(SAME_WEIGHTS);
    });

    it('should give each per-replica model its replica’s weights of the seed step', async () => {
      const expected = await seedWeights();
      const shared = tinyParts();
      parts.push(shared);
      const naive = perReplicaModelsStep(shared, runcard, inputs, TEST_INTEGRATION);
      steps.push(naive);
      await naive.run(0);
      await naive.run(1);
      naive.models.forEach((model, r) => {
        const values = model.weights().map((weight) => Float32Array.from(weight.dataSync()));
        expect(maxDifference(values, replicaSlice(expected, r, 3))).toBeLessThan(SAME_WEIGHTS);
      });
    });
  },
  ['cpu', 'wasm'],
);

describeOnBackends(
  'gatheredSplitLosses',
  () => {
    it('should equal the objective’s losses read off the same predictions', () => {
      const parts = tinyParts();
      const gathered = gatheredSplitLosses(parts, inputs);
      try {
        const [expected, actual] = tf.tidy(() => {
          const pdf = parts.model.forward();
          const keys = [
            'training',
            'trainingChi2',
            'validation',
            'validationChi2PerPoint',
          ] as const;
          const seed = parts.objective.losses(pdf);
          const naive = gathered.losses(pdf);
          return [
            keys.map((key) => seed[key].arraySync()),
            keys.map((key) => naive[key].arraySync()),
          ];
        });
        expected.forEach((values, k) => {
          values.forEach((value, r) => {
            expect(actual[k][r]).toBeCloseTo(value, Math.max(0, 4 - Math.round(Math.log10(value))));
          });
        });
      } finally {
        gathered.dispose();
        disposeParts(parts);
      }
    });
  },
  ['cpu', 'wasm'],
);

describe('modeSelection', () => {
  it('should list each replica’s counted modes as flat indices with their 1/λ', () => {
    const selection = modeSelection({
      kind: 'eigenbasis',
      ndata: 3,
      replicas: 2,
      blocks: [
        {
          offset: 0,
          size: 2,
          modes: 2,
          rotation: new Float32Array(4),
          weights: Float32Array.from([0.5, 0, 0, 0.25]),
        },
        {
          offset: 2,
          size: 1,
          modes: 1,
          rotation: new Float32Array(1),
          weights: Float32Array.from([2, 4]),
        },
      ],
    });
    // 3 modes per replica: replica 0 counts modes 0 and 2, replica 1 modes 1 and 2
    expect(Array.from(selection.indices)).toEqual([0, 2, 4, 5]);
    expect(Array.from(selection.inverseEigenvalues)).toEqual([0.5, 2, 0.25, 4]);
    expect(selection.perReplica).toBe(2);
  });

  it('should reject replicas that count different numbers of modes', () => {
    expect(() =>
      modeSelection({
        kind: 'eigenbasis',
        ndata: 2,
        replicas: 2,
        blocks: [
          {
            offset: 0,
            size: 2,
            modes: 2,
            rotation: new Float32Array(4),
            weights: Float32Array.from([1, 1, 0, 1]),
          },
        ],
      }),
    ).toThrow(InvalidArgumentError);
  });
});
