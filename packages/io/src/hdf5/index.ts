export {
  CONTENT_DIGEST_ATTRIBUTE,
  hdf5ContentDigest,
  withContentDigest,
} from './content-digest.js';
export type {
  Hdf5AttributeValue,
  Hdf5Contents,
  Hdf5Data,
  Hdf5Dataset,
  Hdf5FileContents,
} from './hdf5-dataset.js';
export { readHdf5Attributes, readHdf5File } from './read-hdf5.js';
export { writeHdf5File } from './write-hdf5.js';
