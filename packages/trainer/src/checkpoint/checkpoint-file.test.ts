import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { readHdf5File, writeHdf5File, type Hdf5Dataset } from '@partonfit/io';
import { describe, expect, it } from 'vitest';
import { CheckpointMismatchError } from './checkpoint-mismatch-error.js';
import { readCheckpoint, writeCheckpoint } from './checkpoint-file.js';
import { checkpointFile } from '@partonfit/fit-folder';
import type { RunFingerprint } from './run-fingerprint.js';
import { type CheckpointArray, type TrainingCheckpoint } from './training-checkpoint.js';

const FINGERPRINT: RunFingerprint = { runcardSha256: 'ab'.repeat(32), replicas: [3, 4] };

function array(shape: readonly number[], first: number): CheckpointArray {
  const size = shape.reduce((product, axis) => product * axis, 1);
  return { shape: [...shape], data: Float32Array.from({ length: size }, (_, i) => first + i / 7) };
}

/** A small checkpoint of two replicas with every kind of entry, special values included. */
function sampleCheckpoint(): TrainingCheckpoint {
  const weights = new Map([
    ['network/kernel_0', array([2, 2, 3], 0.1)],
    ['network/bias_0', array([2, 1, 3], -0.3)],
    ['preprocessing/alpha_g', array([2, 1], 1.1)],
  ]);
  return {
    fingerprint: FINGERPRINT,
    epoch: 3000,
    seconds: 12.5,
    weights,
    optimizer: {
      name: 'Nadam',
      step: 3000,
      slots: new Map([
        [
          'momentum',
          new Map([
            ['network/kernel_0', array([2, 2, 3], 1e-7)],
            ['network/bias_0', array([2, 1, 3], 2e-7)],
          ]),
        ],
        [
          'velocity',
          new Map([
            ['network/kernel_0', array([2, 2, 3], 3e-9)],
            ['network/bias_0', array([2, 1, 3], 4e-9)],
          ]),
        ],
      ]),
    },
    stopping: {
      bestValidation: Float32Array.of(Number.POSITIVE_INFINITY, 123.25),
      bestEpoch: Float32Array.of(-1, 2871),
      stopEpoch: Float32Array.of(-1, 2990),
      waiting: Float32Array.of(0, 129),
      counting: Float32Array.of(0, 1),
      failed: Float32Array.of(1, 0),
      bestWeights: new Map([...weights].map(([name, value]) => [name, array(value.shape, 5)])),
    },
    multipliers: new Map([
      ['positivity/POSF2U', Float32Array.of(1234.5678)],
      ['integrability/INTEGXT3', Float32Array.of(0.01, 0.02)],
    ]),
    history: [
      { epoch: 100, training: Float32Array.of(9.5, Number.NaN), validation: Float32Array.of(8, 7) },
      { epoch: 200, training: Float32Array.of(4.5, 3.25), validation: Float32Array.of(4, 3) },
    ],
  };
}

async function freshFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'partonfit-checkpoint-file-'));
}

/** Writes the sample checkpoint, then rewrites the file with `edit` applied to its contents. */
async function editedCheckpoint(
  edit: (
    datasets: Map<string, Hdf5Dataset>,
    attributes: Record<string, string | number | number[]>,
  ) => void,
): Promise<string> {
  const file = join(await freshFolder(), 'checkpoint.h5');
  await writeCheckpoint(file, sampleCheckpoint());
  const { datasets, attributes } = await readHdf5File(file);
  edit(datasets, attributes);
  await writeHdf5File(file, { datasets: Object.fromEntries(datasets), attributes });
  return file;
}

async function readError(file: string, expected = FINGERPRINT): Promise<InputFileError> {
  const error: unknown = await readCheckpoint(file, expected).catch((thrown: unknown) => thrown);
  expect(InputFileError.isInstance(error)).toBe(true);
  expect((error as InputFileError).file).toBe(file);
  return error as InputFileError;
}

describe('writeCheckpoint and readCheckpoint', () => {
  it('should read back exactly what was written, and leave no temporary file', async () => {
    const folder = await freshFolder();
    const file = join(folder, 'checkpoint.h5');
    await writeCheckpoint(file, { ...sampleCheckpoint(), epoch: 1000 });
    await writeCheckpoint(file, sampleCheckpoint());
    expect(await readCheckpoint(file, FINGERPRINT)).toEqual(sampleCheckpoint());
    expect(await readdir(folder)).toEqual(['checkpoint.h5']);
  });

  it('should lay the file out as documented', async () => {
    const file = join(await freshFolder(), 'checkpoint.h5');
    await writeCheckpoint(file, sampleCheckpoint());
    const { datasets, attributes } = await readHdf5File(file);
    expect(attributes).toEqual({
      format: 'partonfit-checkpoint-1',
      runcard_sha256: FINGERPRINT.runcardSha256,
      replicas: [3, 4],
      epoch: 3000,
      seconds: 12.5,
      optimizer: 'Nadam',
      optimizer_step: 3000,
      content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
    expect(datasets.get('weights/network/kernel_0')?.shape).toEqual([2, 2, 3]);
    expect(datasets.get('optimizer/velocity/network/bias_0')?.shape).toEqual([2, 1, 3]);
    expect(datasets.get('stopping/best_epoch')?.data).toEqual(Float32Array.of(-1, 2871));
    expect(datasets.get('stopping/best_weights/preprocessing/alpha_g')?.shape).toEqual([2, 1]);
    expect(datasets.get('lagrange/positivity/POSF2U')?.shape).toEqual([]);
    expect(datasets.get('history/epoch')?.data).toEqual(Int32Array.of(100, 200));
    expect(datasets.get('history/validation')?.shape).toEqual([2, 2]);
  });

  it('should refuse the checkpoint of another runcard or other replicas', async () => {
    const file = join(await freshFolder(), 'checkpoint.h5');
    await writeCheckpoint(file, sampleCheckpoint());
    const otherRuncard = await readError(file, { ...FINGERPRINT, runcardSha256: 'cd'.repeat(32) });
    expect(CheckpointMismatchError.isInstance(otherRuncard)).toBe(true);
    expect(otherRuncard.key).toBe('runcard_sha256');
    expect(otherRuncard.message).toContain('runcard hash abababababab…');
    const otherReplicas = await readError(file, { ...FINGERPRINT, replicas: [3, 4, 5] });
    expect(CheckpointMismatchError.isInstance(otherReplicas)).toBe(true);
    expect(otherReplicas.message).toContain('it has replicas 3-4, this fit has replicas 3-5');
  });

  it('should refuse a checkpoint whose fit inputs changed since, and name it by replicas', async () => {
    const folder = await freshFolder();
    const file = checkpointFile(folder, [3, 4]);
    expect(file).toBe(join(folder, 'checkpoint_replicas_3-4.h5'));
    expect(checkpointFile(folder, [1, 2, 3, 7])).toBe(join(folder, 'checkpoint_replicas_1-3,7.h5'));
    await writeCheckpoint(file, {
      ...sampleCheckpoint(),
      fingerprint: { ...FINGERPRINT, inputsSha256: '01'.repeat(32) },
    });
    // The check made before the inputs are prepared does not know them yet.
    expect((await readCheckpoint(file, FINGERPRINT)).epoch).toBe(3000);
    const sameInputs = { ...FINGERPRINT, inputsSha256: '01'.repeat(32) };
    expect((await readCheckpoint(file, sameInputs)).epoch).toBe(3000);
    const edited = await readError(file, { ...FINGERPRINT, inputsSha256: '02'.repeat(32) });
    expect(CheckpointMismatchError.isInstance(edited)).toBe(true);
    expect(edited.key).toBe('inputs_sha256');
    expect(edited.message).toContain('an input file changed since the checkpoint');
  });

  it('should refuse another format, a file that is not a checkpoint, and a missing file', async () => {
    const otherFormat = await readError(
      await editedCheckpoint((_, attributes) => {
        attributes.format = 'partonfit-checkpoint-0';
      }),
    );
    expect(CheckpointMismatchError.isInstance(otherFormat)).toBe(true);
    expect(otherFormat.key).toBe('format');
    const folder = await freshFolder();
    const plain = join(folder, 'weights.h5');
    await writeHdf5File(plain, { datasets: { x: { shape: [1], data: Float32Array.of(1) } } });
    expect((await readError(plain)).message).toContain('not a partonfit checkpoint');
    const text = join(folder, 'checkpoint.txt');
    await writeFile(text, 'epoch: 1000\n');
    expect((await readError(text)).message).toContain('not an HDF5 file');
    const missing = join(folder, 'checkpoint.h5');
    expect((await readError(missing)).message).toContain('no checkpoint to resume from');
  });

  it.each([
    [
      'weights/network/bias_0',
      'replicas (at most 2) on the first axis',
      (datasets: Map<string, Hdf5Dataset>) => {
        datasets.set('weights/network/bias_0', { shape: [3, 3], data: new Float32Array(9) });
      },
    ],
    [
      'weights/network/kernel_0',
      'float32',
      (datasets: Map<string, Hdf5Dataset>) => {
        datasets.set('weights/network/kernel_0', { shape: [2, 6], data: new Float64Array(12) });
      },
    ],
    [
      'stopping/waiting',
      'missing',
      (datasets: Map<string, Hdf5Dataset>) => {
        datasets.delete('stopping/waiting');
      },
    ],
    [
      'history/training',
      'shape [2, 2]',
      (datasets: Map<string, Hdf5Dataset>) => {
        datasets.set('history/training', { shape: [1, 2], data: new Float32Array(2) });
      },
    ],
    [
      'notes',
      'unexpected dataset',
      (datasets: Map<string, Hdf5Dataset>) => {
        datasets.set('notes', { shape: [1], data: Float32Array.of(1) });
      },
    ],
  ])('should name the malformed entry %s', async (key, problem, edit) => {
    const error = await readError(await editedCheckpoint(edit));
    expect(error.key).toBe(key);
    expect(error.message).toContain(problem);
  });

  it('should refuse a checkpoint whose content changed on disk, and read one without a checksum', async () => {
    const flipped = await readError(
      await editedCheckpoint((datasets) => {
        const best = datasets.get('stopping/best_weights/network/kernel_0')?.data as Float32Array;
        const bits = new Uint32Array(best.buffer, best.byteOffset, best.length);
        bits[5] ^= 1 << 20;
      }),
    );
    expect(flipped.key).toBe('content_sha256');
    const otherEpoch = await readError(
      await editedCheckpoint((_, attributes) => {
        attributes.epoch = 3001;
      }),
    );
    expect(otherEpoch.key).toBe('content_sha256');
    expect(flipped.message).toContain(
      'the stored content does not match its checksum: the file was damaged after it was written',
    );
    const unchecked = await editedCheckpoint((_, attributes) => {
      delete attributes.content_sha256;
    });
    expect(await readCheckpoint(unchecked, FINGERPRINT)).toEqual(sampleCheckpoint());
  });

  it('should name a malformed attribute', async () => {
    const error = await readError(
      await editedCheckpoint((_, attributes) => {
        attributes.epoch = -5;
      }),
    );
    expect(error.key).toBe('epoch');
    expect(error.message).toContain('expected a non-negative integer, got -5');
  });

  it('should refuse a history entry without one value per replica', async () => {
    const checkpoint = sampleCheckpoint();
    const file = join(await freshFolder(), 'checkpoint.h5');
    const history = [{ epoch: 100, training: Float32Array.of(1), validation: Float32Array.of(1) }];
    await expect(writeCheckpoint(file, { ...checkpoint, history })).rejects.toThrow(
      'history[0].training: expected shape [2] (replicas), got [1]',
    );
  });
});
