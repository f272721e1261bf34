import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError, type Runcard } from '@partonfit/core';
import { gaussIntegrationGrid } from '@partonfit/layers';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { replicaTrainingOrder } from '../methodology/replica-methodology.js';
import {
  closureInputs,
  heterogeneousClosureRuncard,
  smallClosureRuncard,
} from '../training/training.fixture.js';
import { buildTrainingParts } from '../training/train-replicas.js';
import type { TrainingParts } from '../training/training-state.js';
import { sliceReplicas } from './extract-replica.js';
import type { ReplicaParameters } from './replica-parameters.js';
import { writeReplicaWeights } from './replica-weights-file.js';
import { readStartingWeights } from './starting-weights.js';

const GRID = gaussIntegrationGrid(100);

function weightsOf(parameters: ReplicaParameters): Record<string, number[]> {
  return Object.fromEntries(
    [...parameters.weights].map(([name, weight]) => [name, Array.from(weight.data)]),
  );
}

function dispose(parts: TrainingParts): void {
  parts.model.dispose();
  parts.objective.dispose();
  parts.optimizer.dispose();
  parts.stopping.dispose();
}

/** Writes each row's parameters as `<folder>/nnfit/replica_<r>/weights.h5` of a fit. */
async function writeFit(
  folder: string,
  replicas: readonly number[],
  parameters: readonly ReplicaParameters[],
): Promise<void> {
  for (const [row, replica] of replicas.entries()) {
    const replicaFolder = join(folder, 'nnfit', `replica_${replica}`);
    await mkdir(replicaFolder, { recursive: true });
    await writeReplicaWeights(join(replicaFolder, 'weights.h5'), parameters[row], {
      fit: 'earlier',
      replica,
      runcardSha256: 'another runcard',
      q0: 1.65,
      backend: 'cpu',
      version: '0.0.0',
    });
  }
}

describeOnBackends('starting weights (a runcard’s load)', () => {
  it('should start each replica from its own weights.h5 of another fit, in padded networks that pass layers through', async () => {
    const runcard = await heterogeneousClosureRuncard();
    const order = replicaTrainingOrder(runcard, [1, 2, 3, 4]);
    const inputs = await closureInputs(runcard, order);
    const options = { networkGroups: 'optimizer' } as const;
    // the earlier fit: the same networks, other random weights
    const earlier = buildTrainingParts(
      { ...runcard, nnseed: runcard.nnseed + 7 },
      inputs,
      GRID,
      options,
    );
    const saved = await sliceReplicas(earlier.model);
    dispose(earlier);
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-load-'));
    await writeFit(folder, order, saved);
    const starting = await readStartingWeights(folder, runcard, order);
    const parts = buildTrainingParts(runcard, inputs, GRID, options, starting);
    expect(parts.model.networks).toHaveLength(1);
    const fresh = buildTrainingParts(runcard, inputs, GRID, options);
    const [loaded, initial] = await Promise.all([
      sliceReplicas(parts.model),
      sliceReplicas(fresh.model),
    ]);
    dispose(fresh);
    for (const row of order.keys()) {
      expect(weightsOf(loaded[row])).toEqual(weightsOf(saved[row]));
      expect(weightsOf(initial[row])).not.toEqual(weightsOf(saved[row]));
    }
    // the stopping's first snapshot holds them: a replica without a best epoch keeps them
    parts.stopping.restoreBestWeights();
    const restored = await sliceReplicas(parts.model);
    expect(restored.map(weightsOf)).toEqual(saved.map(weightsOf));
    dispose(parts);
  });

  it('should start every replica from one weights.h5, as n3fit loads one file', async () => {
    const runcard = await smallClosureRuncard({ epochs: 10 });
    const inputs = await closureInputs(runcard, [1, 2, 3]);
    const earlier = buildTrainingParts({ ...runcard, nnseed: 99 }, inputs, GRID);
    const [first] = await sliceReplicas(earlier.model);
    dispose(earlier);
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-load-'));
    await writeFit(folder, [1], [first]);
    const file = join(folder, 'nnfit', 'replica_1', 'weights.h5');
    const parts = buildTrainingParts(
      runcard,
      inputs,
      GRID,
      {},
      await readStartingWeights(file, runcard, [1, 2, 3]),
    );
    const loaded = await sliceReplicas(parts.model);
    expect(loaded.map(weightsOf)).toEqual([first, first, first].map(weightsOf));
    dispose(parts);
  });

  it('should refuse the weights of another network or a missing replica, naming the file', async () => {
    const runcard = await smallClosureRuncard({ epochs: 10 });
    const inputs = await closureInputs(runcard, [1]);
    const earlier = buildTrainingParts(runcard, inputs, GRID);
    const saved = await sliceReplicas(earlier.model);
    dispose(earlier);
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-load-'));
    await writeFit(folder, [1], saved);
    const file = join(folder, 'nnfit', 'replica_1', 'weights.h5');
    const wider: Runcard = {
      ...runcard,
      parameters: { ...runcard.parameters, nodes_per_layer: [30, 8] },
    };
    const units = runcard.parameters.nodes_per_layer.join(',');
    await expect(readStartingWeights(folder, wider, [1])).rejects.toThrow(
      `${file}: nodes_per_layer: holds a network with [${units}], this fit's replica has [30,8]`,
    );
    const sigmoid: Runcard = {
      ...runcard,
      parameters: {
        ...runcard.parameters,
        activation_per_layer: runcard.parameters.activation_per_layer.map((activation) =>
          activation === 'tanh' ? 'sigmoid' : activation,
        ),
      },
    };
    await expect(readStartingWeights(folder, sigmoid, [1])).rejects.toThrow(
      `${file}: activation_per_layer: holds a network with [`,
    );
    const missing = join(folder, 'nnfit', 'replica_2', 'weights.h5');
    await expect(readStartingWeights(folder, runcard, [1, 2])).rejects.toThrow(InputFileError);
    await expect(readStartingWeights(folder, runcard, [1, 2])).rejects.toThrow(missing);
  });
});
