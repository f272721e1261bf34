export {
  inputBytesAsText,
  isGzip,
  readInputBytes,
  readInputText,
  unpackInputBytes,
  type InputBytes,
  type InputText,
} from './read-input.js';
export {
  isTar,
  readTarHeader,
  TAR_BLOCK,
  tarEntries,
  tarMetadata,
  type TarEntry,
  type TarHeader,
} from './tar.js';
