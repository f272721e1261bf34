import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError, InvalidArgumentError, ShapeError } from '@partonfit/core';
import h5wasm from 'h5wasm/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { readHdf5Attributes, readHdf5File } from './read-hdf5.js';
import { writeHdf5File } from './write-hdf5.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'partonfit-hdf5-'));
});

/** The bit patterns of float32 values, to compare them exactly (NaN and −0 included). */
const bits = (values: Float32Array) =>
  Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length));

async function inputError(promise: Promise<unknown>): Promise<InputFileError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!InputFileError.isInstance(error))
    throw new Error(`expected an InputFileError, got ${String(error)}`);
  return error;
}

describe('writeHdf5File and readHdf5File', () => {
  const kernel = Float32Array.from([0.1, -0, 3.4e38, 1e-45, Number.NaN, -2.5]);
  const contents = {
    datasets: {
      'replica_1/dense_0/kernel': { shape: [2, 3], data: kernel },
      'replica_1/dense_0/bias': { shape: [3], data: Float64Array.from([1 / 3, -1e-300, 2 ** 53]) },
      'replica_2/stopping/epochs': { shape: [2], data: Int32Array.from([-2147483648, 2147483647]) },
      mask: { shape: [2, 2], data: Uint8Array.from([0, 1, 255, 1]) },
      chi2: { shape: [], data: Float64Array.of(1.07) },
      empty: { shape: [0, 3], data: new Float64Array(0) },
    },
    attributes: { fit: 'NNPDF40_test', seed: 4294967295, tolerance: 0.1, xGrid: [1e-9, 0.5, 1] },
  };

  it('should round-trip datasets bit for bit and the root attributes', async () => {
    const file = join(folder, 'weights.h5');
    await writeHdf5File(file, contents);
    const read = await readHdf5File(file);
    expect([...read.datasets.keys()].sort()).toEqual(Object.keys(contents.datasets).sort());
    const readKernel = read.datasets.get('replica_1/dense_0/kernel');
    expect(readKernel?.shape).toEqual([2, 3]);
    expect(readKernel?.data).toBeInstanceOf(Float32Array);
    expect(bits(readKernel?.data as Float32Array)).toEqual(bits(kernel));
    for (const [path, dataset] of Object.entries(contents.datasets)) {
      expect(read.datasets.get(path)).toEqual(dataset);
    }
    expect(read.attributes).toEqual({
      fit: 'NNPDF40_test',
      seed: 4294967295,
      tolerance: 0.1,
      xGrid: [1e-9, 0.5, 1],
    });
  });

  it('should read the root attributes alone, and name a file that is not HDF5', async () => {
    const file = join(folder, 'attributes.h5');
    await writeHdf5File(file, contents);
    expect(await readHdf5Attributes(file)).toEqual((await readHdf5File(file)).attributes);
    const text = join(folder, 'text.h5');
    await writeFile(text, 'not HDF5');
    await expect(readHdf5Attributes(text)).rejects.toThrow(
      `${text}: not an HDF5 file (no HDF5 signature)`,
    );
  });

  it('should replace an existing file and leave no temporary file behind', async () => {
    const local = await mkdtemp(join(folder, 'replace-'));
    const file = join(local, 'cache.h5');
    await writeFile(file, 'old contents');
    await writeHdf5File(file, { datasets: { x: { shape: [1], data: Float64Array.of(2) } } });
    expect(await readdir(local)).toEqual(['cache.h5']);
    expect((await readHdf5File(file)).datasets.get('x')?.data).toEqual(Float64Array.of(2));
    expect((await stat(file)).size).toBeGreaterThan(100);
  });

  it('should refuse malformed paths, a dataset used as a group, and data that does not fit the shape', async () => {
    const file = join(folder, 'never.h5');
    const one = { shape: [1], data: Float64Array.of(1) };
    await expect(writeHdf5File(file, { datasets: { '/a': one } })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(writeHdf5File(file, { datasets: { a: one, 'a/b': one } })).rejects.toThrow(
      "datasets: 'a' cannot be a dataset and the group of 'a/b'",
    );
    await expect(
      writeHdf5File(file, { datasets: { a: { shape: [2, 2], data: Float64Array.of(1, 2, 3) } } }),
    ).rejects.toThrow(ShapeError);
    await expect(
      writeHdf5File(join(folder, 'missing', 'x.h5'), { datasets: { a: one } }),
    ).rejects.toThrow(/ENOENT/);
    expect((await readdir(folder)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('should name a missing file and a file that is not HDF5', async () => {
    const missing = join(folder, 'no-such.h5');
    expect((await inputError(readHdf5File(missing))).message).toMatch(
      new RegExp(`^${missing}: cannot read the file \\(ENOENT`),
    );
    const text = join(folder, 'text.h5');
    await writeFile(
      text,
      'this is not HDF5, only long enough to be probed at 512 bytes'.repeat(20),
    );
    expect((await inputError(readHdf5File(text))).message).toBe(
      `${text}: not an HDF5 file (no HDF5 signature)`,
    );
  });

  it('should name the dataset of a type it does not read', async () => {
    await h5wasm.ready;
    const file = join(folder, 'int16.h5');
    const output = new h5wasm.File(file, 'w');
    output.create_dataset({ name: 'counts', data: Int16Array.of(1, 2), shape: [2] });
    output.close();
    const error = await inputError(readHdf5File(file));
    expect(error.key).toBe('counts');
    expect(error.message).toBe(
      `${file}: counts: dataset type "<h" is not one of float64, float32, int32, uint8`,
    );
  });

  it('should report a truncated HDF5 file as an input error', async () => {
    const file = join(folder, 'whole.h5');
    await writeHdf5File(file, contents);
    const truncated = join(folder, 'truncated.h5');
    const bytes = await readFile(file);
    await writeFile(truncated, bytes.subarray(0, 600));
    const error = await inputError(readHdf5File(truncated));
    expect(error.message).toMatch(
      new RegExp(`^${truncated}: HDF5 cannot open the file: truncated file: eof = 600`),
    );
  });
});

const WEIGHTS = 'n3fit_reference/weights_1.weights.h5';

describe.skipIf(!hasSharedData(WEIGHTS, 'n3fit Keras weights file'))(
  'readHdf5File on n3fit output',
  () => {
    it('should read the 22 float32 weight arrays of an upstream Keras weights file', async () => {
      // values and bit patterns read independently with h5py 3.7
      const { datasets } = await readHdf5File(`${SHARED_DATA}${WEIGHTS}`);
      expect(datasets.size).toBe(22);
      const kernel = datasets.get('layers/meta_model/layers/meta_model/layers/dense/vars/0');
      expect(kernel?.shape).toEqual([2, 15]);
      const values = kernel?.data as Float32Array;
      expect(bits(values.subarray(0, 1))).toEqual([3224710659]);
      expect([values[0], values[1 * 15 + 14]]).toEqual([-2.8309333324432373, 0.2892521023750305]);
      expect(datasets.get('layers/preprocessing/vars/3')?.data).toEqual(
        Float32Array.of(2.9478347301483154),
      );
    });
  },
);
