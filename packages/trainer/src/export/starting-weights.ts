import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type Runcard } from '@partonfit/core';
import { networkWeightOf, type ReplicaPdfModel } from '../model/pdf-model.js';
import { replicaArchitecture, type ReplicaParameters } from './replica-parameters.js';
import { readReplicaWeights } from './replica-weights-file.js';

/**
 * n3fit's `load`: the weights a fit's replicas start from instead of their random
 * initialisation, read from per-replica `weights.h5` files (partonfit's export).
 *
 * @packageDocumentation
 */

/**
 * The `weights.h5` replica `replica` starts from: for a fit folder its own replica's
 * (`<fit>/nnfit/replica_<r>/weights.h5`, replicas matched by number), for a file that file
 * (every replica the same, as n3fit's `load` of one file).
 */
function startingFile(source: string, isFolder: boolean, replica: number): string {
  return isFolder ? join(source, 'nnfit', `replica_${replica}`, 'weights.h5') : source;
}

/**
 * Reads the weights each replica starts from (`load`): `source` a fit folder (replica r from
 * its `nnfit/replica_<r>/weights.h5`) or one `weights.h5` for every replica. Each file must hold
 * the network this fit gives the replica: same widths, activations, fit basis and fitted
 * flavours (the runcard's own, per replica with `parameters_per_replica`).
 *
 * @param replicas - the replicas, in the model's row order
 * @returns each row's parameters
 * @throws InputFileError naming the file and the attribute or dataset for a missing file, one
 *   that is not a replica's weights, or a network other than the replica's
 */
export async function readStartingWeights(
  source: string,
  runcard: Runcard,
  replicas: readonly number[],
): Promise<ReplicaParameters[]> {
  const isFolder = (await stat(source).catch(() => undefined))?.isDirectory() === true;
  // one file for every replica is read once per network it must hold, not once per replica
  const reads = new Map<string, Promise<ReplicaParameters>>();
  return Promise.all(
    replicas.map((replica) => {
      const architecture = replicaArchitecture(runcard, replica);
      const file = startingFile(source, isFolder, replica);
      const key = `${file}\n${JSON.stringify(architecture)}`;
      const read =
        reads.get(key) ??
        readReplicaWeights(file, { architecture }).then(({ parameters }) => parameters);
      reads.set(key, read);
      return read;
    }),
  );
}

/**
 * `(rows, cols)` of a member's own layer written into its `(paddedRows, paddedCols)` block of a
 * padded network weight (the top-left corner; the padding keeps what it holds, masked anyway).
 */
function writeBlock(
  target: Float32Array,
  offset: number,
  padded: readonly [number, number],
  block: { readonly shape: readonly number[]; readonly data: Float32Array },
): void {
  const [rows = 1, columns = 1] = block.shape;
  for (let i = 0; i < rows; i++) {
    target.set(block.data.subarray(i * columns, (i + 1) * columns), offset + i * padded[1]);
  }
}

/**
 * Sets every row of a freshly built model to the weights it starts from ({@link
 * readStartingWeights}): each member's own layers of its network group (a layer it passes through
 * keeps its identity) and its preprocessing exponents. Call before the stopping takes its first
 * snapshot of the weights, so that a replica without a best epoch keeps these.
 *
 * @param rows - one per model row, in row order
 * @throws InvalidArgumentError for a count of rows other than the model's
 */
export function setStartingWeights(
  model: ReplicaPdfModel,
  rows: readonly ReplicaParameters[],
): void {
  if (rows.length !== model.replicas) {
    throw new InvalidArgumentError({
      argument: 'startingWeights',
      problem: `expected one entry per model row (${model.replicas}), got ${rows.length}`,
    });
  }
  const { networks } = model.methodology;
  for (const { name, variable } of model.namedWeights()) {
    const data = Float32Array.from(variable.dataSync());
    const [first = 1, ...rest] = variable.shape;
    const perRow = data.length / first;
    if (name.startsWith('preprocessing/')) {
      rows.forEach((parameters, row) => {
        const own = parameters.weights.get(name);
        if (own !== undefined) data.set(own.data, row * perRow);
      });
    } else {
      const weight = networkWeightOf(name);
      if (weight === undefined) continue;
      const { start, end, memberLayers } = networks[weight.group];
      const padded: [number, number] = rest.length === 2 ? [rest[0], rest[1]] : [1, perRow];
      for (let row = start; row < end; row++) {
        const own = memberLayers[weight.layer][row - start];
        const block = own < 0 ? undefined : rows[row].weights.get(`network/${weight.kind}_${own}`);
        if (block !== undefined) writeBlock(data, (row - start) * perRow, padded, block);
      }
    }
    tf.tidy(() => {
      variable.assign(tf.tensor(data, variable.shape, 'float32'));
    });
  }
}
