import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_DIGEST_ATTRIBUTE,
  hdf5ContentDigest,
  withContentDigest,
} from './content-digest.js';
import { readHdf5File } from './read-hdf5.js';
import { writeHdf5File } from './write-hdf5.js';

describe('hdf5ContentDigest', () => {
  const contents = {
    datasets: {
      'operator/matrix': { shape: [2, 2], data: Float64Array.from([1, 0.5, -0.25, 2]) },
      flavours: { shape: [3], data: Int32Array.from([3, 4, 5]) },
    },
    attributes: { format: 'test-1', q0: 1.65, scales: [1.65, 2] },
  };

  it('should be the digest of the contents read back, and change with one bit of a value', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'partonfit-digest-')), 'checked.h5');
    const written = withContentDigest(contents);
    await writeHdf5File(file, written);
    const read = await readHdf5File(file);
    const stored = read.attributes[CONTENT_DIGEST_ATTRIBUTE];
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(hdf5ContentDigest(read.attributes, read.datasets)).toBe(stored);
    const bytes = await readFile(file);
    const value = bytes.indexOf(Buffer.from(Float64Array.of(-0.25).buffer));
    expect(value).toBeGreaterThan(0);
    bytes[value] ^= 1;
    await writeFile(file, bytes);
    const damaged = await readHdf5File(file);
    expect(hdf5ContentDigest(damaged.attributes, damaged.datasets)).not.toBe(stored);
  });

  it('should depend on the attributes and the dataset shapes, not on the order of entries', () => {
    const datasets = new Map(Object.entries(contents.datasets));
    const digest = hdf5ContentDigest(contents.attributes, datasets);
    const reordered = new Map([...datasets.entries()].reverse());
    expect(hdf5ContentDigest({ q0: 1.65, scales: [1.65, 2], format: 'test-1' }, reordered)).toBe(
      digest,
    );
    expect(hdf5ContentDigest({ ...contents.attributes, q0: 1.6 }, datasets)).not.toBe(digest);
    const reshaped = new Map(datasets).set('operator/matrix', {
      shape: [4],
      data: contents.datasets['operator/matrix'].data,
    });
    expect(hdf5ContentDigest(contents.attributes, reshaped)).not.toBe(digest);
  });
});
