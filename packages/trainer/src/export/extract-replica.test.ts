import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { EVOLUTION_BASIS_SIZE, InputFileError, InvalidArgumentError } from '@partonfit/core';
import { expect, it } from 'vitest';
import type { ReplicaPdfModel } from '../model/pdf-model.js';
import { describeOnBackends } from '@partonfit/testing';
import {
  largestScaledDifference,
  multiReplicaModel,
  TEST_X,
  variantRuncard,
} from './export.fixture.js';
import { extractReplica, sliceReplicas } from './extract-replica.js';
import { MODEL_FILES, modelFolderHandler } from './model-folder-handler.js';
import { replicaPdfAt } from './replica-model.js';

/** Float32 tolerance for a chain of a few float32 operations, on each flavour's scale. */
const TOLERANCE = 1e-5;

async function multiReplicaValues(model: ReplicaPdfModel): Promise<Float32Array> {
  const values = model.at(TEST_X);
  try {
    return (await values.data()) as Float32Array;
  } finally {
    values.dispose();
  }
}

/** Row `row` of `(replicas, x, 14)` values. */
function replicaRow(values: Float32Array, row: number): Float32Array {
  const size = TEST_X.length * EVOLUTION_BASIS_SIZE;
  return values.subarray(row * size, (row + 1) * size);
}

describeOnBackends('extractReplica', () => {
  it('should equal every replica of the multi-replica model to float32 tolerance', async () => {
    const runcard = await variantRuncard();
    const model = multiReplicaModel(runcard, [1, 2, 3]);
    const expected = await multiReplicaValues(model);
    for (const row of [0, 1, 2]) {
      const single = await extractReplica(model, row);
      const actual = await replicaPdfAt(single, TEST_X);
      expect(largestScaledDifference(actual, replicaRow(expected, row))).toBeLessThan(TOLERANCE);
      expect(single.layers.map((layer) => layer.getClassName())).toEqual([
        'InputLayer',
        'Dense',
        'Dense',
        'Dense',
        'PartonfitReplicaPreprocessing',
        'Multiply',
        'Dense',
        'PartonfitSumRuleFactors',
      ]);
      single.dispose();
    }
    // replicas are different PDFs, so the comparison above tells them apart
    expect(
      largestScaledDifference(replicaRow(expected, 0), replicaRow(expected, 1)),
    ).toBeGreaterThan(1e-2);
    model.dispose();
  });

  it('should rebuild activations tfjs has no name for, other fit bases and sum rules', async () => {
    const runcard = await variantRuncard(
      {
        nodes_per_layer: [7, 6, 5, 8],
        activation_per_layer: ['square', 'modified_tanh', 'leaky_relu', 'sigmoid'],
      },
      {
        fitbasis: 'FLAVOUR',
        basis: ['g', 'u', 'ubar', 'd', 'dbar', 's', 'sbar', 'c'].map((fl) => ({
          fl,
          trainable: false,
          smallx: [1.05, 1.15],
          largex: [2.5, 3.5],
        })),
        sum_rules: 'MSR',
      },
    );
    const model = multiReplicaModel(runcard, [4, 9]);
    const expected = await multiReplicaValues(model);
    for (const row of [0, 1]) {
      const single = await extractReplica(model, row);
      const actual = await replicaPdfAt(single, TEST_X);
      expect(largestScaledDifference(actual, replicaRow(expected, row))).toBeLessThan(TOLERANCE);
      expect(single.getLayer('activation_0').getConfig().activation).toBe('square');
      single.dispose();
    }
    model.dispose();
  });

  it('should reload from model.json and weights.bin with identical outputs', async () => {
    const runcard = await variantRuncard({
      nodes_per_layer: [6, 8],
      activation_per_layer: ['elu', 'leaky_relu'],
    });
    const model = multiReplicaModel(runcard, [2, 5]);
    const single = await extractReplica(model, 1);
    const folder = join(await mkdtemp(join(tmpdir(), 'partonfit-tfjs-')), 'replica_5');
    await single.save(modelFolderHandler(folder));
    const saved = JSON.parse(await readFile(join(folder, MODEL_FILES.json), 'utf8')) as {
      format: string;
      weightsManifest: { paths: string[]; weights: { name: string }[] }[];
    };
    expect(saved.format).toBe('layers-model');
    expect(saved.weightsManifest[0].paths).toEqual(['weights.bin']);
    expect(saved.weightsManifest[0].weights.map(({ name }) => name)).toContain(
      'preprocessing/alpha_sng',
    );
    const reloaded = await tfl.loadLayersModel(modelFolderHandler(folder));
    expect(await replicaPdfAt(reloaded, TEST_X)).toEqual(await replicaPdfAt(single, TEST_X));
    single.dispose();
    reloaded.dispose();
    model.dispose();
  });

  it('should refuse a truncated weights file and a missing model', async () => {
    const runcard = await variantRuncard({ nodes_per_layer: [8], activation_per_layer: ['tanh'] });
    const model = multiReplicaModel(runcard, [1]);
    const single = await extractReplica(model, 0);
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-tfjs-'));
    await single.save(modelFolderHandler(folder));
    const weights = join(folder, MODEL_FILES.weights);
    await writeFile(weights, (await readFile(weights)).subarray(0, 20));
    await expect(tfl.loadLayersModel(modelFolderHandler(folder))).rejects.toThrow(
      /weights\.bin: holds 20 bytes but .*model\.json lists weights of \d+ bytes/,
    );
    const missing = modelFolderHandler(join(folder, 'absent'));
    await expect(missing.load?.()).rejects.toThrow(InputFileError);
    await expect(missing.load?.()).rejects.toThrow(/absent\/model\.json: cannot read the file/);
    single.dispose();
    model.dispose();
  });

  it('should reject a row outside the model and free what it builds', async () => {
    const runcard = await variantRuncard();
    const model = multiReplicaModel(runcard, [1, 2]);
    await expect(extractReplica(model, 2)).rejects.toThrow(InvalidArgumentError);
    await expect(extractReplica(model, 2)).rejects.toThrow(
      'expected a replica row from 0 to 1, got 2',
    );
    await sliceReplicas(model);
    const before = tf.memory().numTensors;
    const single = await extractReplica(model, 0);
    await replicaPdfAt(single, TEST_X);
    single.dispose();
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });
});
