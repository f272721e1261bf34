import { access } from 'node:fs/promises';
import { formatReplicaSelection, InputFileError, ShapeError } from '@partonfit/core';
import {
  CONTENT_DIGEST_ATTRIBUTE,
  hdf5ContentDigest,
  readHdf5File,
  withContentDigest,
  writeHdf5File,
  type Hdf5Dataset,
} from '@partonfit/io';
import { CheckpointMismatchError } from './checkpoint-mismatch-error.js';
import type { RunFingerprint } from './run-fingerprint.js';
import {
  CHECKPOINT_FORMAT,
  type CheckpointArray,
  type StoppingCheckpoint,
  type TrainingCheckpoint,
  type TrainingHistoryEntry,
} from './training-checkpoint.js';

/** The per-replica stopping arrays and their dataset names under `stopping/`. */
const STOPPING_ARRAYS = [
  ['bestValidation', 'best_validation'],
  ['bestEpoch', 'best_epoch'],
  ['stopEpoch', 'stop_epoch'],
  ['waiting', 'waiting'],
  ['counting', 'counting'],
  ['failed', 'failed'],
] as const;

type StoppingArrayKey = (typeof STOPPING_ARRAYS)[number][0];

/** The root attributes of a file, any of which may be missing. */
type Attributes = Readonly<Partial<Record<string, string | number | number[]>>>;

/** Rows of `(entries, replicas)` from the history's per-replica arrays. */
function historyRows(
  history: readonly TrainingHistoryEntry[],
  key: 'training' | 'validation',
  replicas: number,
): Float32Array {
  const rows = new Float32Array(history.length * replicas);
  history.forEach((entry, i) => {
    if (entry[key].length !== replicas) {
      throw new ShapeError({
        quantity: `history[${i}].${key}`,
        expected: [replicas],
        actual: [entry[key].length],
        axes: '(replicas)',
      });
    }
    rows.set(entry[key], i * replicas);
  });
  return rows;
}

/**
 * Writes a checkpoint to one HDF5 file atomically (temporary file, flush, rename): a fit killed
 * while writing leaves the previous checkpoint intact.
 *
 * Layout — root attributes `format` (`partonfit-checkpoint-1`), `runcard_sha256`, `replicas`
 * (1-based), `epoch` (epochs done), `seconds`, `optimizer`, `optimizer_step`, `content_sha256`
 * (a checksum of every other attribute and every dataset, checked when the checkpoint is read);
 * datasets, float32
 * with replicas first unless said otherwise:
 * - `weights/<weight>`: every model weight, e.g. `weights/network/kernel_0` (replicas, in, out),
 *   or per network group `weights/network_<g>/kernel_0` (the group's replicas, in, out) when the
 *   replicas have their own hyperparameters;
 * - `optimizer/<statistic>/<weight>`: per trainable weight, e.g. `optimizer/velocity/network/bias_2`
 *   (with several optimisers among the replicas, the statistic is prefixed by the optimiser:
 *   `optimizer/Adam_velocity/…`);
 * - `stopping/{best_validation,best_epoch,stop_epoch,waiting,counting,failed}` (replicas) and
 *   `stopping/best_weights/<weight>`;
 * - `lagrange/positivity/<set>`, `lagrange/integrability/<set>`: λ, a scalar, or `(replicas)`
 *   where the replicas' schedules differ;
 * - `history/epoch` int32 (entries), `history/training`, `history/validation` (entries, replicas).
 *
 * @param file - the checkpoint file (its folder must exist)
 * @param checkpoint - the state to write
 * @throws ShapeError when a history entry does not have one value per replica
 */
export async function writeCheckpoint(file: string, checkpoint: TrainingCheckpoint): Promise<void> {
  const { fingerprint, stopping, history } = checkpoint;
  const replicas = fingerprint.replicas.length;
  const datasets: Record<string, Hdf5Dataset> = {};
  const put = (path: string, array: CheckpointArray) => {
    datasets[path] = { shape: array.shape, data: array.data };
  };
  for (const [name, array] of checkpoint.weights) put(`weights/${name}`, array);
  for (const [slot, arrays] of checkpoint.optimizer.slots) {
    for (const [name, array] of arrays) put(`optimizer/${slot}/${name}`, array);
  }
  for (const [key, dataset] of STOPPING_ARRAYS) {
    put(`stopping/${dataset}`, { shape: [stopping[key].length], data: stopping[key] });
  }
  for (const [name, array] of stopping.bestWeights) put(`stopping/best_weights/${name}`, array);
  for (const [name, values] of checkpoint.multipliers) {
    put(`lagrange/${name}`, { shape: values.length === 1 ? [] : [values.length], data: values });
  }
  datasets['history/epoch'] = {
    shape: [history.length],
    data: Int32Array.from(history, (entry) => entry.epoch),
  };
  for (const key of ['training', 'validation'] as const) {
    put(`history/${key}`, {
      shape: [history.length, replicas],
      data: historyRows(history, key, replicas),
    });
  }
  const attributes = {
    format: CHECKPOINT_FORMAT,
    runcard_sha256: fingerprint.runcardSha256,
    replicas: [...fingerprint.replicas],
    ...(fingerprint.inputsSha256 === undefined ? {} : { inputs_sha256: fingerprint.inputsSha256 }),
    epoch: checkpoint.epoch,
    seconds: checkpoint.seconds,
    optimizer: checkpoint.optimizer.name,
    optimizer_step: checkpoint.optimizer.step,
  };
  await writeHdf5File(file, withContentDigest({ datasets, attributes }));
}

/**
 * Refuses a checkpoint whose content does not match the checksum written with it. Checkpoints
 * written before partonfit stored one are read unchecked.
 */
function checkContentDigest(
  attributes: Attributes,
  datasets: ReadonlyMap<string, Hdf5Dataset>,
  fail: (key: string, problem: string) => InputFileError,
): void {
  const stored = attributes[CONTENT_DIGEST_ATTRIBUTE];
  if (stored === undefined) return;
  if (stored !== hdf5ContentDigest(attributes, datasets)) {
    throw fail(
      CONTENT_DIGEST_ATTRIBUTE,
      'the stored content does not match its checksum: the file was damaged after it was written (a bit flip, a broken copy); start the fit without resuming',
    );
  }
}

/** A root attribute that must be a non-negative integer (or, with `integer` false, number). */
function count(
  attributes: Attributes,
  key: string,
  fail: (key: string, problem: string) => InputFileError,
  integer = true,
): number {
  const value = attributes[key];
  if (typeof value !== 'number' || !(value >= 0) || (integer && !Number.isInteger(value))) {
    throw fail(
      key,
      `expected a non-negative ${integer ? 'integer' : 'number'}, got ${String(value)}`,
    );
  }
  return value;
}

/** Checks the file's format and fingerprint against this fit's. */
function checkFingerprint(
  file: string,
  attributes: Attributes,
  expected: RunFingerprint,
  fail: (key: string, problem: string) => InputFileError,
): void {
  const { format, runcard_sha256: runcardSha256 } = attributes;
  if (format === undefined) {
    throw fail('format', 'not a partonfit checkpoint (the file has no format attribute)');
  }
  if (format !== CHECKPOINT_FORMAT) {
    throw new CheckpointMismatchError({
      file,
      key: 'format',
      expected: `format ${CHECKPOINT_FORMAT}`,
      found: `format ${String(format)}`,
    });
  }
  if (typeof runcardSha256 !== 'string') {
    throw fail('runcard_sha256', 'expected the runcard hash as a string');
  }
  if (runcardSha256 !== expected.runcardSha256) {
    throw new CheckpointMismatchError({
      file,
      key: 'runcard_sha256',
      expected: `runcard hash ${expected.runcardSha256.slice(0, 12)}…`,
      found: `runcard hash ${runcardSha256.slice(0, 12)}…`,
    });
  }
  const stored = attributes.replicas;
  const replicas = typeof stored === 'number' ? [stored] : stored;
  if (!Array.isArray(replicas)) throw fail('replicas', 'expected a list of replica numbers');
  const same =
    replicas.length === expected.replicas.length &&
    replicas.every((replica, r) => replica === expected.replicas[r]);
  if (!same) {
    throw new CheckpointMismatchError({
      file,
      key: 'replicas',
      expected: `replicas ${formatReplicaSelection(expected.replicas)}`,
      found: `replicas ${formatReplicaSelection(replicas)}`,
    });
  }
  checkInputsDigest(file, attributes.inputs_sha256, expected);
}

/** Checks the hash of the fit inputs a checkpoint was written with, when this fit's is known. */
function checkInputsDigest(file: string, stored: unknown, expected: RunFingerprint): void {
  if (expected.inputsSha256 !== undefined && stored !== expected.inputsSha256) {
    throw new CheckpointMismatchError({
      file,
      key: 'inputs_sha256',
      expected: `fit inputs ${expected.inputsSha256.slice(0, 12)}… (an input file changed since the checkpoint)`,
      found: `fit inputs ${typeof stored === 'string' ? `${stored.slice(0, 12)}…` : 'unrecorded'}`,
    });
  }
}

/**
 * Checks a checkpoint read before the fit inputs were prepared (with a fingerprint without
 * their hash) against the fit's complete fingerprint, so that it is not read a second time.
 *
 * @param file - the checkpoint file, for the message
 * @param checkpoint - read with {@link readCheckpoint}
 * @param expected - the fit's fingerprint with its inputs' hash
 * @throws CheckpointMismatchError when an input file changed since the checkpoint was written
 */
export function checkCheckpointInputs(
  file: string,
  checkpoint: TrainingCheckpoint,
  expected: RunFingerprint,
): void {
  checkInputsDigest(file, checkpoint.fingerprint.inputsSha256, expected);
}

/** The datasets of a checkpoint file sorted into a checkpoint, every shape checked. */
function sortDatasets(
  datasets: ReadonlyMap<string, Hdf5Dataset>,
  replicas: number,
  fail: (key: string, problem: string) => InputFileError,
) {
  const weights = new Map<string, CheckpointArray>();
  const slots = new Map<string, Map<string, CheckpointArray>>();
  const bestWeights = new Map<string, CheckpointArray>();
  const stopping = new Map<string, Float32Array>();
  const multipliers = new Map<string, Float32Array>();
  const history = new Map<string, Hdf5Dataset>();
  const float32 = (path: string, dataset: Hdf5Dataset, replicaAxis: boolean): CheckpointArray => {
    if (!(dataset.data instanceof Float32Array)) {
      throw fail(path, 'expected float32 values');
    }
    // a network group's weights hold some of the replicas; the model checks each shape
    const [first = 0] = dataset.shape;
    if (replicaAxis && (first < 1 || first > replicas)) {
      throw fail(
        path,
        `expected replicas (at most ${replicas}) on the first axis, got shape [${dataset.shape.join(', ')}]`,
      );
    }
    return { shape: [...dataset.shape], data: Float32Array.from(dataset.data) };
  };
  for (const [path, dataset] of datasets) {
    const [group = '', ...rest] = path.split('/');
    const name = rest.join('/');
    if (group === 'weights' && rest.length > 0) {
      weights.set(name, float32(path, dataset, true));
    } else if (group === 'optimizer' && rest.length > 1) {
      const [slot = '', ...weight] = rest;
      const arrays = slots.get(slot) ?? new Map<string, CheckpointArray>();
      arrays.set(weight.join('/'), float32(path, dataset, true));
      slots.set(slot, arrays);
    } else if (group === 'stopping' && rest[0] === 'best_weights' && rest.length > 1) {
      bestWeights.set(rest.slice(1).join('/'), float32(path, dataset, true));
    } else if (group === 'stopping' && STOPPING_ARRAYS.some(([, key]) => key === name)) {
      const array = float32(path, dataset, true);
      if (array.shape.length !== 1 || array.shape[0] !== replicas) {
        throw fail(path, `expected shape [${replicas}] (replicas)`);
      }
      stopping.set(name, array.data);
    } else if (group === 'lagrange' && rest.length > 0) {
      const values = float32(path, dataset, false).data;
      if (values.length !== 1 && values.length !== replicas) {
        throw fail(
          path,
          `expected one value, or one per replica (${replicas}), got ${values.length}`,
        );
      }
      multipliers.set(name, values);
    } else if (group === 'history' && ['epoch', 'training', 'validation'].includes(name)) {
      history.set(name, dataset);
    } else {
      throw fail(path, 'unexpected dataset in a checkpoint');
    }
  }
  return { weights, slots, bestWeights, stopping, multipliers, history };
}

/** The history from its three datasets. */
function historyEntries(
  history: ReadonlyMap<string, Hdf5Dataset>,
  replicas: number,
  fail: (key: string, problem: string) => InputFileError,
): TrainingHistoryEntry[] {
  const epochs = history.get('epoch');
  if (!(epochs?.data instanceof Int32Array) || epochs.shape.length !== 1) {
    throw fail('history/epoch', 'expected int32 epochs (entries)');
  }
  const entries = epochs.data.length;
  const rows = (key: 'training' | 'validation') => {
    const dataset = history.get(key);
    const fits =
      dataset?.data instanceof Float32Array &&
      dataset.shape.length === 2 &&
      dataset.shape[0] === entries &&
      dataset.shape[1] === replicas;
    if (!fits) {
      throw fail(`history/${key}`, `expected float32 values of shape [${entries}, ${replicas}]`);
    }
    return dataset.data;
  };
  const training = rows('training');
  const validation = rows('validation');
  return Array.from(epochs.data, (epoch, i) => ({
    epoch,
    training: training.slice(i * replicas, (i + 1) * replicas),
    validation: validation.slice(i * replicas, (i + 1) * replicas),
  }));
}

/**
 * Reads a checkpoint written by {@link writeCheckpoint} and checks that it belongs to this fit.
 *
 * @param file - the checkpoint file
 * @param expected - this fit's fingerprint (see {@link runFingerprint})
 * @throws InputFileError naming the file when it is missing ("no checkpoint to resume from"), is
 *   not HDF5 or not a checkpoint, has a missing or malformed entry (the entry is the `key`), or
 *   content that does not match its checksum (`content_sha256`);
 *   CheckpointMismatchError (an InputFileError) when it was written by another runcard, for
 *   other replicas, or in another format
 */
export async function readCheckpoint(
  file: string,
  expected: RunFingerprint,
): Promise<TrainingCheckpoint> {
  try {
    await access(file);
  } catch (cause) {
    throw new InputFileError({
      file,
      problem:
        'no checkpoint to resume from (the file does not exist); start the fit without resuming',
      cause,
    });
  }
  const { datasets, attributes } = await readHdf5File(file);
  const fail = (key: string, problem: string) => new InputFileError({ file, key, problem });
  checkFingerprint(file, attributes, expected, fail);
  const replicas = expected.replicas.length;
  const optimizer = attributes.optimizer;
  if (typeof optimizer !== 'string') throw fail('optimizer', 'expected the optimiser name');
  const sorted = sortDatasets(datasets, replicas, fail);
  const stopping = Object.fromEntries(
    STOPPING_ARRAYS.map(([key, dataset]) => {
      const array = sorted.stopping.get(dataset);
      if (array === undefined) throw fail(`stopping/${dataset}`, 'missing from the checkpoint');
      return [key, array];
    }),
  ) as Record<StoppingArrayKey, Float32Array>;
  const stoppingCheckpoint: StoppingCheckpoint = { ...stopping, bestWeights: sorted.bestWeights };
  const history = historyEntries(sorted.history, replicas, fail);
  const epoch = count(attributes, 'epoch', fail);
  const seconds = count(attributes, 'seconds', fail, false);
  const step = count(attributes, 'optimizer_step', fail);
  // Last, so that a malformed entry is named before the checksum says the file changed.
  checkContentDigest(attributes, datasets, fail);
  return {
    fingerprint: {
      runcardSha256: expected.runcardSha256,
      replicas: [...expected.replicas],
      ...(typeof attributes.inputs_sha256 === 'string'
        ? { inputsSha256: attributes.inputs_sha256 }
        : {}),
    },
    epoch,
    seconds,
    weights: sorted.weights,
    optimizer: {
      name: optimizer,
      step,
      slots: sorted.slots,
    },
    stopping: stoppingCheckpoint,
    multipliers: sorted.multipliers,
    history,
  };
}
