import * as tf from '@tensorflow/tfjs-core';
import type * as tfl from '@tensorflow/tfjs-layers';
import { EVOLUTION_BASIS_SIZE, InvalidArgumentError } from '@partonfit/core';
import { logXFeatures, SumRuleNormalisation, xColumn } from '@partonfit/layers';
import type { ReplicaPdfModel } from '../model/pdf-model.js';
import { buildReplicaModel } from './replica-model.js';
import type { ReplicaParameters, ReplicaWeight } from './replica-parameters.js';

/**
 * The sum-rule factors A of every replica, `(replicas, 14)` row-major: the model's network,
 * preprocessing and rotation evaluated on the integration grid alone, then the same
 * normalisation layer the model applies.
 */
async function normalisationFactors(model: ReplicaPdfModel): Promise<Float32Array> {
  const grid = model.integration;
  const layer = new SumRuleNormalisation({
    mode: model.sumRulesMode,
    grid,
    integrationOffset: 0,
    outputPoints: 'all',
  });
  const features = logXFeatures(grid.x);
  const x = xColumn(grid.x);
  const factors = tf.tidy(() => {
    const network = model.network.apply(features) as tf.Tensor3D;
    const prefactor = model.preprocessing.apply(x) as tf.Tensor3D;
    const evolution = model.rotation.apply(tf.mul(network, prefactor)) as tf.Tensor3D;
    // applied once so that tfjs counts the layer as used and `dispose` frees its constants
    layer.apply(evolution);
    return layer.normalisationFactors(evolution);
  });
  try {
    return Float32Array.from(await factors.data());
  } finally {
    tf.dispose([features, x, factors]);
    layer.dispose();
  }
}

/**
 * Every replica's parameters from a multi-replica model: the slice `weight[r]` of each of its
 * stable-named weights (`ReplicaPdfModel.namedWeights`), its architecture, and its sum-rule
 * factors computed once on the integration grid and frozen. Reads the weights back from the
 * device once.
 *
 * @throws InvalidArgumentError for a model with a custom preprocessing layer
 * @returns one entry per replica row of the model, in row order
 */
export async function sliceReplicas(model: ReplicaPdfModel): Promise<ReplicaParameters[]> {
  const preprocessing = model.stockPreprocessing();
  const named = model.namedWeights();
  const values = await Promise.all(named.map(({ variable }) => variable.data()));
  const factors = await normalisationFactors(model);
  const architecture = {
    units: [...model.network.units],
    activations: [...model.network.activations],
    fitBasis: model.rotation.fitBasis.name,
    flavours: preprocessing.flavours.map((flavour) => ({ ...flavour })),
  };
  return Array.from({ length: model.replicas }, (_, row) => {
    const weights = new Map<string, ReplicaWeight>();
    named.forEach(({ name, variable }, i) => {
      const shape = variable.shape.slice(1);
      const size = shape.reduce((product, axis) => product * axis, 1);
      const all = values[i] as Float32Array;
      weights.set(name, { shape, data: all.slice(row * size, (row + 1) * size) });
    });
    return {
      architecture,
      weights,
      normalisation: factors.slice(row * EVOLUTION_BASIS_SIZE, (row + 1) * EVOLUTION_BASIS_SIZE),
    };
  });
}

/**
 * Replica `row` of a multi-replica model as an ordinary single-replica tfjs `LayersModel` of
 * plain `dense` layers ({@link buildReplicaModel}): input `[x, log x]` `(points, 2)`, output x·f
 * in the evolution basis `(points, 14)`, equal to row `row` of `model.at(x)` to float32
 * tolerance. The sum-rule factors are computed once from the multi-replica model and frozen.
 *
 * @param row - the replica's row in the model, 0-based (row r holds the r-th replica the model
 *   was built with)
 * @throws InvalidArgumentError for a row outside the model
 */
export async function extractReplica(
  model: ReplicaPdfModel,
  row: number,
): Promise<tfl.LayersModel> {
  if (!Number.isInteger(row) || row < 0 || row >= model.replicas) {
    throw new InvalidArgumentError({
      argument: 'row',
      problem: `expected a replica row from 0 to ${model.replicas - 1}, got ${row}`,
    });
  }
  const parameters = (await sliceReplicas(model))[row];
  return buildReplicaModel(parameters, `replica_row_${row}`);
}
