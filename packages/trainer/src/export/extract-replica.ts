import * as tf from '@tensorflow/tfjs-core';
import type * as tfl from '@tensorflow/tfjs-layers';
import { EVOLUTION_BASIS_SIZE, InvalidArgumentError } from '@partonfit/core';
import { logXFeatures, NETWORK_INPUTS, SumRuleNormalisation, xColumn } from '@partonfit/layers';
import { networkGroupName, type ReplicaPdfModel } from '../model/pdf-model.js';
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
    const network = model.networkOutput(features);
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

/** The block `[:rows, :columns]` of a `(paddedRows, paddedColumns)` matrix, row-major. */
function leadingBlock(
  values: Float32Array,
  paddedColumns: number,
  rows: number,
  columns: number,
): Float32Array {
  if (columns === paddedColumns) return values.slice(0, rows * columns);
  const block = new Float32Array(rows * columns);
  for (let i = 0; i < rows; i++) {
    block.set(values.subarray(i * paddedColumns, i * paddedColumns + columns), i * columns);
  }
  return block;
}

/**
 * Every replica's parameters from a multi-replica model: its slice `weight[r]` of each of the
 * model's stable-named weights (`ReplicaPdfModel.namedWeights`) — of its network group's
 * weights cut to its own widths (`network/kernel_<l>` `(in_r, units_r)`), so that a replica
 * trained in a padded network comes out as a network of its own shape — its own architecture,
 * and its sum-rule factors computed once on the integration grid and frozen. Reads the weights
 * back from the device once.
 *
 * @throws InvalidArgumentError for a model with a custom preprocessing layer
 * @returns one entry per replica row of the model, in row order
 */
export async function sliceReplicas(model: ReplicaPdfModel): Promise<ReplicaParameters[]> {
  const preprocessing = model.stockPreprocessing();
  const named = model.namedWeights();
  const values = await Promise.all(named.map(({ variable }) => variable.data()));
  const factors = await normalisationFactors(model);
  const flavours = preprocessing.flavours.map((flavour) => ({ ...flavour }));
  const fitBasis = model.rotation.fitBasis.name;
  const { methodology } = model;
  const single = model.networks.length === 1;
  const valueOf = new Map(
    named.map(({ name, variable }, i) => [name, { variable, data: values[i] as Float32Array }]),
  );
  const slice = (name: string, row: number, rows?: number, columns?: number): ReplicaWeight => {
    const entry = valueOf.get(name);
    if (entry === undefined) {
      throw new InvalidArgumentError({ argument: 'model', problem: `has no weight ${name}` });
    }
    const shape = entry.variable.shape.slice(1);
    const size = shape.reduce((product, axis) => product * axis, 1);
    const own = entry.data.slice(row * size, (row + 1) * size);
    if (rows === undefined || columns === undefined) return { shape, data: own };
    return { shape: [rows, columns], data: leadingBlock(own, shape[1] ?? columns, rows, columns) };
  };
  return Array.from({ length: model.replicas }, (_, row) => {
    const g = methodology.networks.findIndex((group) => row >= group.start && row < group.end);
    const group = methodology.networks[g];
    if (g < 0) {
      throw new InvalidArgumentError({ argument: 'model', problem: `row ${row} is in no network` });
    }
    const member = row - group.start;
    const units: number[] = [];
    const weights = new Map<string, ReplicaWeight>();
    const prefix = networkGroupName(g, single);
    let inputs = NETWORK_INPUTS;
    // the member's own layers, skipping those of a deeper network it passes through
    group.memberLayers.forEach((layers, l) => {
      const own = layers[member] ?? -1;
      if (own < 0) return;
      const width = group.replicaUnits[l]?.[member] ?? 0;
      weights.set(`network/kernel_${own}`, slice(`${prefix}/kernel_${l}`, member, inputs, width));
      weights.set(`network/bias_${own}`, slice(`${prefix}/bias_${l}`, member, 1, width));
      units.push(width);
      inputs = width;
    });
    for (const { name } of named) {
      if (name.startsWith('preprocessing/')) weights.set(name, slice(name, row));
    }
    return {
      architecture: {
        units,
        activations: [...(methodology.parameters[row]?.activation_per_layer ?? group.activations)],
        fitBasis,
        flavours,
      },
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
