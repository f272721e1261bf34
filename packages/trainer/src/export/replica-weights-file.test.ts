import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { initBackend } from '@partonfit/backend';
import { readHdf5File, writeHdf5File, type Hdf5Dataset } from '@partonfit/io';
import { beforeAll, describe, expect, it } from 'vitest';
import { multiReplicaModel, variantRuncard } from './export.fixture.js';
import { sliceReplicas } from './extract-replica.js';
import { replicaArchitecture, type ReplicaParameters } from './replica-parameters.js';
import {
  readReplicaWeights,
  readReplicaWeightsMetadata,
  REPLICA_WEIGHTS_FORMAT,
  writeReplicaWeights,
  type ReplicaWeightsMetadata,
} from './replica-weights-file.js';

const METADATA: ReplicaWeightsMetadata = {
  fit: 'tiny',
  replica: 7,
  runcardSha256: 'a'.repeat(64),
  q0: 1.65,
  backend: 'cpu',
  version: '0.1.0',
};

/** Replica 7 (row 1 of replicas 3 and 7) of a freshly initialised closure-runcard model. */
async function replicaSeven(): Promise<ReplicaParameters> {
  const runcard = await variantRuncard();
  const model = multiReplicaModel(runcard, [3, 7]);
  const [, parameters] = await sliceReplicas(model);
  model.dispose();
  return parameters;
}

/** A copy of a written file with datasets and attributes changed. */
async function altered(
  file: string,
  change: (
    datasets: Map<string, Hdf5Dataset>,
    attributes: Record<string, string | number | number[]>,
  ) => void,
): Promise<string> {
  const { datasets, attributes } = await readHdf5File(file);
  change(datasets, attributes);
  const copy = `${file}.altered.h5`;
  await writeHdf5File(copy, { datasets: Object.fromEntries(datasets), attributes });
  return copy;
}

describe('replica weights.h5', () => {
  let folder: string;
  let parameters: ReplicaParameters;
  let file: string;
  const expected = () => ({
    architecture: parameters.architecture,
    runcardSha256: METADATA.runcardSha256,
  });

  beforeAll(async () => {
    await initBackend('cpu');
    folder = await mkdtemp(join(tmpdir(), 'partonfit-weights-'));
    parameters = await replicaSeven();
    file = join(folder, 'weights.h5');
    await writeReplicaWeights(file, parameters, METADATA);
  });

  it('should lay out one replica as documented', async () => {
    const { datasets, attributes } = await readHdf5File(file);
    expect([...datasets.keys()].sort()).toEqual(
      [
        ...[0, 1, 2].flatMap((l) => [`network/kernel_${l}`, `network/bias_${l}`]),
        ...['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].flatMap((fl) => [
          `preprocessing/alpha_${fl}`,
          `preprocessing/beta_${fl}`,
        ]),
      ].sort(),
    );
    expect(datasets.get('network/kernel_0')?.shape).toEqual([2, 25]);
    expect(datasets.get('network/bias_1')?.shape).toEqual([1, 20]);
    expect(datasets.get('preprocessing/alpha_g')?.shape).toEqual([1]);
    expect(datasets.get('network/kernel_2')?.data).toBeInstanceOf(Float32Array);
    expect(attributes).toMatchObject({
      format: REPLICA_WEIGHTS_FORMAT,
      fit: 'tiny',
      replica: 7,
      q0: 1.65,
      fit_basis: 'EVOL',
      preprocessing_flavours: 'sng,g,v,v3,v8,t3,t8,t15',
      nodes_per_layer: [25, 20, 8],
      activation_per_layer: 'tanh,tanh,linear',
      backend: 'cpu',
      partonfit_version: '0.1.0',
    });
    const factors = attributes.normalisation as number[];
    expect(factors).toHaveLength(14);
    // the gluon (momentum) and valence factors are fixed, the others are 1
    expect(factors.filter((factor) => factor !== 1)).toHaveLength(7);
    // the closure runcard draws α_g in [1.05, 1.15]
    const alphaG = datasets.get('preprocessing/alpha_g')?.data[0] ?? 0;
    expect(alphaG).toBeGreaterThanOrEqual(1.05);
    expect(alphaG).toBeLessThanOrEqual(1.15);
  });

  it('should read back the same parameters and metadata', async () => {
    const read = await readReplicaWeights(file, expected());
    expect(read.metadata).toEqual(METADATA);
    expect(read.parameters.normalisation).toEqual(parameters.normalisation);
    expect([...read.parameters.weights.keys()]).toEqual([...parameters.weights.keys()]);
    for (const [name, weight] of parameters.weights) {
      expect(read.parameters.weights.get(name)).toEqual(weight);
    }
    expect(await readReplicaWeightsMetadata(file)).toEqual(METADATA);
  });

  it('should name the file and the key of every problem', async () => {
    await expect(readReplicaWeights(join(folder, 'absent.h5'), expected())).rejects.toThrow(
      /absent\.h5: cannot read the file/,
    );
    const text = join(folder, 'text.h5');
    await writeFile(text, 'not hdf5');
    await expect(readReplicaWeights(text, expected())).rejects.toThrow(`${text}: not an HDF5 file`);
    await expect(
      readReplicaWeights(file, { ...expected(), runcardSha256: 'b'.repeat(64) }),
    ).rejects.toThrow(`${file}: runcard_sha256: written by a fit of another runcard`);
    const otherNetwork = replicaArchitecture(
      await variantRuncard({ nodes_per_layer: [10, 8], activation_per_layer: ['tanh', 'linear'] }),
    );
    await expect(
      readReplicaWeights(file, { ...expected(), architecture: otherNetwork }),
    ).rejects.toThrow(
      `${file}: nodes_per_layer: holds a network with [25,20,8], this fit's replica has [10,8]`,
    );
    const cases: [Parameters<typeof altered>[1], string | RegExp][] = [
      [
        (datasets) => {
          const kernel = datasets.get('network/kernel_0') as Hdf5Dataset;
          datasets.set('network/kernel_0', { shape: [2, 24], data: kernel.data.slice(0, 48) });
        },
        "network/kernel_0: expected shape (2, 25) for this replica's network in the fit's runcard, got (2, 24)",
      ],
      [
        (datasets) => datasets.delete('preprocessing/beta_t8'),
        'preprocessing/beta_t8: missing dataset',
      ],
      [
        (datasets) => {
          const bias = datasets.get('network/bias_1') as Hdf5Dataset;
          const data = Float32Array.from(bias.data);
          data[3] = Number.NaN;
          datasets.set('network/bias_1', { shape: bias.shape, data });
        },
        'network/bias_1: NaN at flat index 3; weights must be finite',
      ],
      [
        (_, attributes) => (attributes.normalisation = [1, 2, 3]),
        'normalisation: expected 14 finite sum-rule factors, got [1,2,3]',
      ],
      [
        (_, attributes) => (attributes.format = 'keras'),
        `format: expected '${REPLICA_WEIGHTS_FORMAT}', got "keras"`,
      ],
      [(_, attributes) => delete attributes.q0, 'q0: missing, or not a finite number'],
      [
        (_, attributes) => (attributes.replica = 0),
        'replica: expected a replica number from 1, got 0',
      ],
    ];
    for (const [change, message] of cases) {
      const copy = await altered(file, change);
      const reading = readReplicaWeights(copy, expected());
      await expect(reading).rejects.toThrow(InputFileError);
      await expect(readReplicaWeights(copy, expected())).rejects.toThrow(`${copy}: ${message}`);
    }
  });
});
