import * as tf from '@tensorflow/tfjs-core';
import { expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import {
  closureInputs,
  disposeResult,
  smallClosureRuncard,
  worstRelativeDifference,
} from './training.fixture.js';
import { trainReplicas, type TrainingResult } from './train-replicas.js';

/** Each trainable weight, per replica: `(replicas)` lists of flat float32 values. */
async function replicaWeights(result: TrainingResult): Promise<Float32Array[][]> {
  const variables = result.model.trainableVariables();
  return Promise.all(
    variables.map(async (variable) => {
      const values = Float32Array.from(await variable.data());
      const size = values.length / result.model.replicas;
      return Array.from({ length: result.model.replicas }, (_, r) =>
        values.slice(r * size, (r + 1) * size),
      );
    }),
  );
}

const dispose = disposeResult;

function maxRelativeDifference(a: Float32Array, b: Float32Array): number {
  return worstRelativeDifference(a, b, 1e-3);
}

const DATASETS = ['CLOSURE_F2P', 'CLOSURE_F2D', 'CLOSURE_NU_XF3', 'CLOSURE_XG'];

describeOnBackends('trainReplicas', () => {
  it.each(['Adam', 'Nadam'] as const)(
    'should train replicas 1–4 together exactly as each alone (%s, clipnorm active)',
    async (name) => {
      const runcard = await smallClosureRuncard({
        datasets: DATASETS,
        epochs: 50,
        optimizer: { optimizer_name: name, learning_rate: 0.01, clipnorm: 1e-3 },
      });
      const together = await trainReplicas(runcard, await closureInputs(runcard, [1, 2, 3, 4]));
      const weightsTogether = await replicaWeights(together);
      for (const [r, replica] of [1, 2, 3, 4].entries()) {
        const alone = await trainReplicas(runcard, await closureInputs(runcard, [replica]));
        const weightsAlone = await replicaWeights(alone);
        weightsAlone.forEach((variable, v) => {
          expect(maxRelativeDifference(weightsTogether[v][r], variable[0])).toBeLessThan(1e-3);
        });
        expect(alone.chi2PerPoint.training[0] / together.chi2PerPoint.training[r]).toBeCloseTo(
          1,
          3,
        );
        dispose(alone);
      }
      // The replicas did learn, each its own way.
      expect(weightsTogether[0][0]).not.toEqual(weightsTogether[0][1]);
      dispose(together);
    },
  );

  it('should give the same fit twice, bit for bit', async () => {
    const runcard = await smallClosureRuncard({ datasets: DATASETS, epochs: 30 });
    const first = await trainReplicas(runcard, await closureInputs(runcard, [1, 2]));
    const second = await trainReplicas(runcard, await closureInputs(runcard, [1, 2]));
    expect(await replicaWeights(second)).toEqual(await replicaWeights(first));
    dispose(first);
    dispose(second);
  });

  it('should fit level-0 data and restore the weights of the best validation epoch', async () => {
    const level0 = await smallClosureRuncard({
      datasets: ['CLOSURE_F2P'],
      epochs: 1500,
      level0: true,
      optimizer: { optimizer_name: 'Nadam', learning_rate: 2.621e-3, clipnorm: 6.073e-6 },
    });
    // Without positivity the validation loss is the validation χ², which the history logs.
    const runcard = { ...level0, positivity: { posdatasets: [] } };
    const result = await trainReplicas(runcard, await closureInputs(runcard, [1]));
    const stopEpoch = result.stopping.stopEpoch[0];
    const beforeStop = result.history.filter(
      (entry) => stopEpoch < 0 || entry.epoch - 1 <= stopEpoch,
    );
    const best = Math.min(...beforeStop.map((entry) => entry.validation[0]));
    // The restored weights give at least as good a validation χ² as any epoch logged before the
    // replica stopped (entry.epoch counts steps: its losses are those of step epoch − 1).
    expect(result.chi2PerPoint.validation[0]).toBeLessThanOrEqual(best * 1.0001 + 1e-6);
    expect(result.chi2PerPoint.experimental[0]).toBeLessThan(0.05);
    expect(result.stopping.bestEpoch[0]).toBeGreaterThan(0);
    dispose(result);
  });

  it('should stop on the training χ² when every point is fitted (frac 1, no validation)', async () => {
    const level0 = await smallClosureRuncard({
      datasets: ['CLOSURE_F2P', 'CLOSURE_XG'],
      epochs: 300,
      level0: true,
    });
    const runcard = {
      ...level0,
      dataset_inputs: level0.dataset_inputs.map((input) => ({ ...input, frac: 1 })),
      positivity: { posdatasets: [] },
    };
    const inputs = await closureInputs(runcard, [1, 2]);
    expect(Array.from(inputs.validationCounts)).toEqual([0, 0]);
    const result = await trainReplicas(runcard, inputs);
    for (const entry of result.history) expect(entry.validation).toEqual(entry.training);
    expect(Array.from(result.chi2PerPoint.validation)).toEqual(
      Array.from(result.chi2PerPoint.training),
    );
    // A validation χ² of 0 would have made the first epoch the best one, and stopped the fit.
    expect(result.stopping.bestEpoch[0]).toBeGreaterThan(250);
    expect(result.chi2PerPoint.training[0]).toBeLessThan(result.history[0].training[0] / 10);
    dispose(result);
  });

  it('should leave no tensors behind', async () => {
    const runcard = await smallClosureRuncard({ datasets: DATASETS, epochs: 20 });
    const inputs = await closureInputs(runcard, [1, 2]);
    dispose(await trainReplicas(runcard, inputs));
    const before = tf.memory().numTensors;
    dispose(
      await trainReplicas(
        { ...runcard, parameters: { ...runcard.parameters, epochs: 120 } },
        inputs,
      ),
    );
    expect(tf.memory().numTensors).toBe(before);
  });
});
