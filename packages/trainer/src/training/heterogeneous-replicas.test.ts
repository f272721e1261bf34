import { replicaParameters, type FitParameters, type Runcard } from '@partonfit/core';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { sliceReplicas } from '../export/extract-replica.js';
import { replicaTrainingOrder } from '../methodology/replica-methodology.js';
import { replicaReadBacks } from './replica-fit-ends.js';
import {
  closureInputs,
  disposeResult,
  smallClosureRuncard,
  worstRelativeDifference,
} from './training.fixture.js';
import { trainReplicas } from './train-replicas.js';

const DATASETS = ['CLOSURE_F2P', 'CLOSURE_F2D', 'CLOSURE_NU_XF3', 'CLOSURE_XG'];

/**
 * Four replicas, each its own methodology: the base network and Nadam; a narrower network in the
 * same group with another learning rate and patience; sigmoid activations and fewer epochs; a
 * two-layer network under Adam with another clipnorm and positivity schedule.
 */
function heterogeneous(base: Runcard): Runcard {
  // every epoch may be a best one (threshold and positivity met), so patience decides the stops
  const parameters: FitParameters = {
    ...base.parameters,
    threshold_chi2: 1000,
    stopping_patience: 0.05,
    positivity: { ...base.parameters.positivity, threshold: 1e6 },
  };
  const entry = (settings: Partial<FitParameters>): FitParameters => ({
    ...parameters,
    ...settings,
  });
  return {
    ...base,
    parameters,
    parameters_per_replica: [
      entry({}),
      entry({
        nodes_per_layer: [15, 10, 8],
        optimizer: { ...parameters.optimizer, learning_rate: 4e-3 },
        stopping_patience: 0.01,
      }),
      entry({ activation_per_layer: ['sigmoid', 'sigmoid', 'linear'], epochs: 130 }),
      entry({
        nodes_per_layer: [30, 8],
        activation_per_layer: ['tanh', 'linear'],
        initializer: 'glorot_uniform',
        optimizer: { optimizer_name: 'Adam', learning_rate: 5e-3, clipnorm: 2e-3 },
        positivity: { ...parameters.positivity, initial: 2, multiplier: 1.5 },
      }),
    ],
  };
}

/** The same runcard with replica r's parameters for every replica, as a user would write it. */
function homogeneous(runcard: Runcard, replica: number): Runcard {
  return {
    ...runcard,
    parameters: replicaParameters(runcard, replica),
    parameters_per_replica: undefined,
  };
}

const dispose = disposeResult;

function worstRelative(a: Float32Array, b: Float32Array): number {
  return worstRelativeDifference(a, b, 1e-6);
}

describeOnBackends('trainReplicas with replicas of their own hyperparameters', () => {
  it('should train each replica exactly as a fit of its own parameters alone', async () => {
    const runcard = heterogeneous(
      await smallClosureRuncard({
        datasets: DATASETS,
        epochs: 200,
        optimizer: { optimizer_name: 'Nadam', learning_rate: 0.01, clipnorm: 1e-3 },
      }),
    );
    const order = replicaTrainingOrder(runcard, [1, 2, 3, 4]);
    // Nadam's groups first (tanh: 1 and 2 padded together; sigmoid: 3), then Adam's
    expect(order).toEqual([1, 2, 3, 4]);
    const reordered = replicaTrainingOrder(runcard, [4, 3, 2, 1, 5, 8]);
    expect(reordered).toEqual([4, 8, 3, 2, 1, 5]);
    const together = await trainReplicas(runcard, await closureInputs(runcard, order));
    expect(together.model.networks.map((network) => network.units)).toEqual([
      [25, 20, 8],
      [25, 20, 8],
      [30, 8],
    ]);
    // every replica stops early by its own patience (replica 2 after 4 epochs without gain)
    expect(Array.from(together.stopping.stopEpoch).every((epoch) => epoch >= 0)).toBe(true);
    expect(together.stopping.stopEpoch[1]).toBeLessThan(20);
    const parameters = await sliceReplicas(together.model);
    for (const [row, replica] of order.entries()) {
      const alone = await trainReplicas(
        homogeneous(runcard, replica),
        await closureInputs(runcard, [replica]),
      );
      const [own] = await sliceReplicas(alone.model);
      expect(parameters[row].architecture).toEqual(own.architecture);
      for (const [name, weight] of own.weights) {
        const mine = parameters[row].weights.get(name);
        expect(mine?.shape).toEqual(weight.shape);
        // Bit for bit on this machine's cpu, wasm and native backends; a product over a padded
        // layer sums more (zero) terms, which a BLAS may group differently: float32 rounding.
        expect(worstRelative(mine?.data ?? new Float32Array(), weight.data)).toBeLessThan(1e-5);
      }
      expect(together.stopping.stopEpoch[row]).toBe(alone.stopping.stopEpoch[0]);
      expect(together.stopping.bestEpoch[row]).toBe(alone.stopping.bestEpoch[0]);
      expect(together.replicaEpochs[row]).toBe(alone.epochsRun);
      const readBacks = replicaReadBacks(together.history, {
        epochs: runcard.parameters_per_replica?.[replica - 1]?.epochs ?? 0,
        end: together.replicaEpochs[row],
        logEvery: 100,
      });
      expect(readBacks.map(({ epoch }) => epoch)).toEqual(alone.history.map(({ epoch }) => epoch));
      readBacks.forEach((entry, i) => {
        expect(entry.validation[row]).toBeCloseTo(alone.history[i].validation[0], 4);
      });
      expect(together.chi2PerPoint.experimental[row]).toBeCloseTo(
        alone.chi2PerPoint.experimental[0],
        5,
      );
      dispose(alone);
    }
    dispose(together);
  });
});
