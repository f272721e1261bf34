import { createHash } from 'node:crypto';
import type { Hdf5AttributeValue, Hdf5Contents, Hdf5Dataset } from './hdf5-dataset.js';

/** The root attribute that holds a file's {@link hdf5ContentDigest}. */
export const CONTENT_DIGEST_ATTRIBUTE = 'content_sha256';

/**
 * SHA-256 (hex) of an HDF5 file's content: its root attributes (but
 * {@link CONTENT_DIGEST_ATTRIBUTE}) in sorted order, then every dataset's path, array type, shape
 * and the bytes of its values in sorted path order. Stored in the file, it lets a reader refuse a
 * file that changed on disk (a bit flip, a damaged copy) instead of using it.
 *
 * @param attributes - the root attributes, as written or as read back
 * @param datasets - the datasets by slash path
 */
export function hdf5ContentDigest(
  attributes: Readonly<Partial<Record<string, Hdf5AttributeValue>>>,
  datasets: ReadonlyMap<string, Hdf5Dataset>,
): string {
  const hash = createHash('sha256');
  const described = Object.entries(attributes)
    .filter(([key]) => key !== CONTENT_DIGEST_ATTRIBUTE)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  hash.update(`${JSON.stringify(described)}\0`);
  for (const path of [...datasets.keys()].sort()) {
    const { shape, data } = datasets.get(path) as Hdf5Dataset;
    hash.update(`${path}\0${data.constructor.name}\0${shape.join(',')}\0`);
    hash.update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  return hash.digest('hex');
}

/**
 * The contents with their {@link hdf5ContentDigest} added as the root attribute
 * {@link CONTENT_DIGEST_ATTRIBUTE}, ready for `writeHdf5File`.
 */
export function withContentDigest(contents: Hdf5Contents): Hdf5Contents {
  const attributes = contents.attributes ?? {};
  const digest = hdf5ContentDigest(attributes, new Map(Object.entries(contents.datasets)));
  return {
    datasets: contents.datasets,
    attributes: { ...attributes, [CONTENT_DIGEST_ATTRIBUTE]: digest },
  };
}
