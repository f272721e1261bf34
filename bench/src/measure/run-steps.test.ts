import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BenchStep } from '../steps/bench-step.js';
import { runPairedSteps, runSteps } from './run-steps.js';

/** A step that records its epochs, reads back `readsPerStep` values and keeps `leak` tensors. */
function fakeStep(readsPerStep = 0, leak = 0) {
  const epochs: number[] = [];
  const readBacks: number[] = [];
  const kept: tf.Tensor[] = [];
  const step: BenchStep = {
    run(epoch) {
      epochs.push(epoch);
      const value = tf.scalar(epoch);
      for (let i = 0; i < readsPerStep; i++) value.dataSync();
      value.dispose();
      for (let i = 0; i < leak; i++) kept.push(tf.scalar(i));
    },
    async readBack() {
      readBacks.push(epochs.at(-1) ?? -1);
      const value = tf.scalar(1);
      await value.data();
      await value.data();
      value.dispose();
    },
    dispose() {
      tf.dispose(kept);
    },
  };
  return { step, epochs, readBacks };
}

const options = { warmup: 2, steps: 3, logEvery: 2, budgetSeconds: Number.POSITIVE_INFINITY };

describe('runSteps', () => {
  beforeAll(async () => {
    await initBackend('cpu');
  });

  it('should run warm-up then measured steps, reading back at the end of each interval', async () => {
    const { step, epochs, readBacks } = fakeStep();
    const run = await runSteps(step, options);
    expect(epochs).toEqual([0, 1, 2, 3, 4]);
    expect(readBacks).toEqual([1, 3]);
    if (run.status !== 'measured') throw new Error(run.reason);
    expect(run.stepMs).toHaveLength(3);
    expect(run.memory.series.map((sample) => sample.step)).toEqual([2, 3, 4]);
    expect(run.memory.flat).toBe(true);
    expect(run.reads).toEqual({ perStep: 0, perReadBack: 2, readBacks: 2, per100Steps: 100 });
  });

  it('should count reads inside steps and see a step that leaks tensors', async () => {
    const { step } = fakeStep(3, 1);
    const run = await runSteps(step, { ...options, logEvery: 100 });
    step.dispose();
    if (run.status !== 'measured') throw new Error(run.reason);
    // 3 reads in each of 5 steps; no interval ended, so one extra read-back is counted
    expect(run.reads).toEqual({ perStep: 3, perReadBack: 2, readBacks: 1, per100Steps: 302 });
    expect(run.memory.flat).toBe(false);
  });

  it('should run the step that ends the interval before the extra read-back', async () => {
    const { step, epochs, readBacks } = fakeStep();
    await runSteps(step, { ...options, logEvery: 100 });
    expect(epochs).toEqual([0, 1, 2, 3, 4, 99]);
    expect(readBacks).toEqual([99]);
  });

  it('should give up with a reason when the budget is exceeded', async () => {
    const { step, epochs } = fakeStep();
    const run = await runSteps(step, { ...options, budgetSeconds: 0 });
    expect(run).toEqual({
      status: 'skipped',
      reason: expect.stringMatching(/exceeds the budget of 0 s$/) as string,
    });
    expect(epochs).toEqual([0]);
  });

  it('should reject a warm-up of zero steps', async () => {
    await expect(runSteps(fakeStep().step, { ...options, warmup: 0 })).rejects.toThrow(
      InvalidArgumentError,
    );
  });
});

describe('runPairedSteps', () => {
  beforeAll(async () => {
    await initBackend('cpu');
  });

  it('should alternate the two steps, each with its own epochs and read-back interval', async () => {
    const reference = fakeStep();
    const compared = fakeStep(1);
    const run = await runPairedSteps(reference.step, compared.step, {
      ...options,
      comparedLogEvery: 1,
    });
    expect(reference.epochs).toEqual([0, 1, 2, 3, 4]);
    expect(compared.epochs).toEqual([0, 1, 2, 3, 4]);
    expect(reference.readBacks).toEqual([1, 3]);
    expect(compared.readBacks).toEqual([0, 1, 2, 3, 4]);
    if (run.status !== 'measured') throw new Error(run.reason);
    expect(run.referenceMs).toHaveLength(3);
    expect(run.comparedMs).toHaveLength(3);
    expect(run.comparedReads).toEqual({
      perStep: 1,
      perReadBack: 2,
      readBacks: 5,
      per100Steps: 300,
    });
  });
});
