/**
 * @partonfit/io — file formats: HDF5, npz/npy, LHAPDF grids, exportgrid and fit folders, all
 * written atomically.
 *
 * @packageDocumentation
 */
export { writeFileAtomic } from './write-file-atomic.js';
