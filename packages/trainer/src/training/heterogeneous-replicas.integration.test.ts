import { replicaParameters, type Runcard } from '@partonfit/core';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { sliceReplicas } from '../export/extract-replica.js';
import { replicaTrainingOrder } from '../methodology/replica-methodology.js';
import { replicaReadBacks } from './replica-fit-ends.js';
import {
  closureInputs,
  disposeResult,
  heterogeneousClosureRuncard,
  worstRelativeDifference,
} from './training.fixture.js';
import { trainReplicas } from './train-replicas.js';

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
    const runcard = await heterogeneousClosureRuncard();
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

  it('should train each replica as in its own network when one network per optimiser holds them all', async () => {
    // Nadam's three-layer networks and Adam's two-layer one (Adam and Nadam update by one
    // formula, so they share a network): the two-layer network passes the three-layer network's
    // middle layer through, which is therefore as wide as its 30-unit hidden layer
    const runcard = await heterogeneousClosureRuncard();
    const order = replicaTrainingOrder(runcard, [1, 2, 3, 4]);
    const inputs = await closureInputs(runcard, order);
    const separate = await trainReplicas(runcard, inputs);
    const merged = await trainReplicas(runcard, inputs, { model: { networkGroups: 'optimizer' } });
    expect(separate.model.networks).toHaveLength(3);
    expect(merged.model.networks.map((network) => network.units)).toEqual([[30, 30, 8]]);
    expect(merged.model.networks[0].passThrough[1]).toEqual([false, false, false, true]);
    const [mine, theirs] = await Promise.all([
      sliceReplicas(merged.model),
      sliceReplicas(separate.model),
    ]);
    for (const row of order.keys()) {
      expect(mine[row].architecture).toEqual(theirs[row].architecture);
      expect([...mine[row].weights.keys()]).toEqual([...theirs[row].weights.keys()]);
      for (const [name, weight] of theirs[row].weights) {
        const own = mine[row].weights.get(name);
        expect(own?.shape).toEqual(weight.shape);
        expect(worstRelative(own?.data ?? new Float32Array(), weight.data)).toBeLessThan(1e-5);
      }
      expect(merged.stopping.stopEpoch[row]).toBe(separate.stopping.stopEpoch[row]);
      expect(merged.chi2PerPoint.validation[row]).toBeCloseTo(
        separate.chi2PerPoint.validation[row],
        5,
      );
    }
    dispose(merged);
    dispose(separate);
  });
});
