/**
 * @partonfit/io — file formats: HDF5, npz/npy, LHAPDF grids, compressed inputs, ndarray views,
 * all written atomically.
 *
 * @packageDocumentation
 */
export { cacheKey } from './cache-key.js';
export * from './compressed/index.js';
export * from './hdf5/index.js';
export * from './lhapdf/index.js';
export * from './ndarray/index.js';
export * from './npy/index.js';
export * from './pineappl/index.js';
export { writeFileAtomic } from './write-file-atomic.js';
export { ensureWritableFolder } from './writable-folder.js';
export { pathExists } from './path-exists.js';
export { removeStaleTemporaries } from './stale-temporaries.js';
