import { InputFileError } from '@partonfit/core';
import { readHdf5File, writeHdf5File, type Hdf5Dataset } from '@partonfit/io';
import {
  NORMALISATION_SIZE,
  replicaWeightShapes,
  type ReplicaArchitecture,
  type ReplicaParameters,
  type ReplicaWeight,
} from './replica-parameters.js';

/** The `format` attribute of a replica's `weights.h5`. */
export const REPLICA_WEIGHTS_FORMAT = 'partonfit-replica-weights-1';

/** Who wrote a replica's weights, and for which fit. */
export interface ReplicaWeightsMetadata {
  /** The fit's name. */
  readonly fit: string;
  /** The replica number, from 1. */
  readonly replica: number;
  /** SHA-256 of the runcard's settings (`runFingerprint(runcard, …).runcardSha256`). */
  readonly runcardSha256: string;
  /** The fit scale Q0 in GeV. */
  readonly q0: number;
  /** The tfjs backend that trained the replica. */
  readonly backend: string;
  /** partonfit's version. */
  readonly version: string;
}

/** A list of names as one attribute string (h5wasm writes no string arrays). */
function nameList(names: readonly string[]): string {
  return names.join(',');
}

/**
 * Writes one replica's weights to an HDF5 file atomically (temporary file, flush, rename).
 *
 * Layout (format `partonfit-replica-weights-1`), every dataset float32 and the replica's own
 * slice `weight[r]` of the multi-replica weight of the same name:
 * - `network/kernel_<l>` `(in, out)` and `network/bias_<l>` `(1, out)` for each dense layer l,
 *   the first layer's input being `[x, log x]`;
 * - `preprocessing/alpha_<fl>` and `preprocessing/beta_<fl>`, `(1)`, per fitted flavour:
 *   the prefactor is x^(1−α)(1−x)^β.
 *
 * Root attributes: `format`; `fit`; `replica` (from 1); `runcard_sha256`; `q0` (GeV);
 * `fit_basis`; `preprocessing_flavours` (comma-separated, network-output order);
 * `nodes_per_layer`; `activation_per_layer` (comma-separated); `normalisation`, the 14 frozen
 * sum-rule factors A in the evolution basis order `γ, Σ, g, V, V3, V8, V15, V24, V35, T3, T8,
 * T15, T24, T35` (the float32 values, stored as float64); `backend`; `partonfit_version`.
 *
 * Replica r's PDF is then `A ⊙ R · [NN(x, log x) ⊙ x^(1−α)(1−x)^β]` with R the fit-basis →
 * evolution-basis rotation; h5py reads every entry (`f['network/kernel_0'][()]`,
 * `f.attrs['normalisation']`).
 *
 * @param file - the file, normally `<fit>/nnfit/replica_<r>/weights.h5`; its folder must exist
 */
export async function writeReplicaWeights(
  file: string,
  parameters: ReplicaParameters,
  metadata: ReplicaWeightsMetadata,
): Promise<void> {
  const datasets: Record<string, Hdf5Dataset> = {};
  for (const [name, weight] of parameters.weights) {
    datasets[name] = { shape: weight.shape, data: weight.data };
  }
  const { architecture } = parameters;
  await writeHdf5File(file, {
    datasets,
    attributes: {
      format: REPLICA_WEIGHTS_FORMAT,
      fit: metadata.fit,
      replica: metadata.replica,
      runcard_sha256: metadata.runcardSha256,
      q0: metadata.q0,
      fit_basis: architecture.fitBasis,
      preprocessing_flavours: nameList(architecture.flavours.map(({ fl }) => fl)),
      nodes_per_layer: [...architecture.units],
      activation_per_layer: nameList(architecture.activations),
      normalisation: Array.from(parameters.normalisation),
      backend: metadata.backend,
      partonfit_version: metadata.version,
    },
  });
}

/** What {@link readReplicaWeights} checks the file against. */
export interface ReplicaWeightsExpectation {
  /**
   * The architecture the fit's runcard gives the replica the file holds (by the replica number
   * it records): fixes the datasets and their shapes.
   */
  readonly architecture: ReplicaArchitecture | ((replica: number) => ReplicaArchitecture);
  /**
   * The fit's runcard hash; the file must carry the same. Omitted for weights of another fit
   * (a fit's `load`): then only the network must be the same.
   */
  readonly runcardSha256?: string;
}

type Attributes = Readonly<Partial<Record<string, string | number | number[]>>>;

function textAttribute(file: string, attributes: Attributes, key: string): string {
  const value = attributes[key];
  if (typeof value !== 'string') {
    throw new InputFileError({ file, key, problem: 'missing, or not a text attribute' });
  }
  return value;
}

function numberAttribute(file: string, attributes: Attributes, key: string): number {
  const value = attributes[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InputFileError({ file, key, problem: 'missing, or not a finite number' });
  }
  return value;
}

/**
 * The metadata of a replica's `weights.h5` (its root attributes), checked for presence and type.
 *
 * @throws InputFileError naming the file (and the attribute as `key`) when it is missing, not
 *   HDF5, of another format, or lacks an attribute
 */
export async function readReplicaWeightsMetadata(file: string): Promise<ReplicaWeightsMetadata> {
  return metadataOf(file, (await readHdf5File(file)).attributes);
}

function metadataOf(file: string, attributes: Attributes): ReplicaWeightsMetadata {
  const format = attributes.format;
  if (format !== REPLICA_WEIGHTS_FORMAT) {
    throw new InputFileError({
      file,
      key: 'format',
      problem: `expected '${REPLICA_WEIGHTS_FORMAT}', got ${JSON.stringify(format ?? null)}`,
    });
  }
  const replica = numberAttribute(file, attributes, 'replica');
  if (!Number.isInteger(replica) || replica < 1) {
    throw new InputFileError({
      file,
      key: 'replica',
      problem: `expected a replica number from 1, got ${replica}`,
    });
  }
  const q0 = numberAttribute(file, attributes, 'q0');
  if (!(q0 > 0)) {
    throw new InputFileError({ file, key: 'q0', problem: `expected Q0 > 0 GeV, got ${q0}` });
  }
  return {
    fit: textAttribute(file, attributes, 'fit'),
    replica,
    runcardSha256: textAttribute(file, attributes, 'runcard_sha256'),
    q0,
    backend: textAttribute(file, attributes, 'backend'),
    version: textAttribute(file, attributes, 'partonfit_version'),
  };
}

function normalisationOf(file: string, attributes: Attributes): Float32Array {
  const value = attributes.normalisation;
  if (
    !Array.isArray(value) ||
    value.length !== NORMALISATION_SIZE ||
    !value.every((factor) => Number.isFinite(factor))
  ) {
    throw new InputFileError({
      file,
      key: 'normalisation',
      problem: `expected ${NORMALISATION_SIZE} finite sum-rule factors, got ${JSON.stringify(value ?? null)}`,
    });
  }
  return Float32Array.from(value);
}

function weightOf(
  file: string,
  datasets: ReadonlyMap<string, { shape: readonly number[]; data: ArrayLike<number> }>,
  name: string,
  shape: readonly number[],
): ReplicaWeight {
  const dataset = datasets.get(name);
  if (dataset === undefined) {
    throw new InputFileError({ file, key: name, problem: 'missing dataset' });
  }
  if (dataset.shape.length !== shape.length || dataset.shape.some((axis, i) => axis !== shape[i])) {
    throw new InputFileError({
      file,
      key: name,
      problem: `expected shape (${shape.join(', ')}) for this replica's network in the fit's runcard, got (${dataset.shape.join(', ')})`,
    });
  }
  const data = Float32Array.from(dataset.data);
  const bad = data.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) {
    throw new InputFileError({
      file,
      key: name,
      problem: `${data[bad]} at flat index ${bad}; weights must be finite`,
    });
  }
  return { shape, data };
}

/**
 * Checks that the file holds the expected network: its `nodes_per_layer`, `activation_per_layer`,
 * `fit_basis` and `preprocessing_flavours`.
 *
 * @throws InputFileError naming the attribute, with the file's value and the expected one
 */
function checkArchitecture(
  file: string,
  attributes: Attributes,
  architecture: ReplicaArchitecture,
): void {
  const expected: [string, string][] = [
    ['nodes_per_layer', architecture.units.join(',')],
    ['activation_per_layer', nameList(architecture.activations)],
    ['fit_basis', architecture.fitBasis],
    ['preprocessing_flavours', nameList(architecture.flavours.map(({ fl }) => fl))],
  ];
  for (const [key, value] of expected) {
    const found = attributes[key];
    const written = Array.isArray(found) ? found.join(',') : String(found ?? '');
    if (written !== value) {
      throw new InputFileError({
        file,
        key,
        problem: `holds a network with ${written === '' ? 'none' : `[${written}]`}, this fit's replica has [${value}]`,
      });
    }
  }
}

/**
 * Reads one replica's `weights.h5` (see {@link writeReplicaWeights}) and checks it against the
 * fit's runcard: same runcard hash (when given), the same network, every weight the runcard's network needs present with its
 * shape and finite, 14 finite normalisation factors.
 *
 * @returns the replica's parameters (architecture from the runcard) and the file's metadata
 * @throws InputFileError naming the file and the dataset or attribute (`key`) at fault: missing
 *   or unreadable file, another format, a runcard hash that is not the fit's, a missing or
 *   misshapen weight, a non-finite value
 */
export async function readReplicaWeights(
  file: string,
  expected: ReplicaWeightsExpectation,
): Promise<{ parameters: ReplicaParameters; metadata: ReplicaWeightsMetadata }> {
  const { datasets, attributes } = await readHdf5File(file);
  const metadata = metadataOf(file, attributes);
  if (expected.runcardSha256 !== undefined && metadata.runcardSha256 !== expected.runcardSha256) {
    throw new InputFileError({
      file,
      key: 'runcard_sha256',
      problem: `written by a fit of another runcard (${metadata.runcardSha256.slice(0, 12)}…, this fit's runcard.yml is ${expected.runcardSha256.slice(0, 12)}…)`,
    });
  }
  const architecture =
    typeof expected.architecture === 'function'
      ? expected.architecture(metadata.replica)
      : expected.architecture;
  checkArchitecture(file, attributes, architecture);
  const weights = new Map<string, ReplicaWeight>();
  for (const [name, shape] of replicaWeightShapes(architecture)) {
    weights.set(name, weightOf(file, datasets, name, shape));
  }
  return {
    parameters: {
      architecture,
      weights,
      normalisation: normalisationOf(file, attributes),
    },
    metadata,
  };
}
