export {
  inputBytesAsText,
  isGzip,
  readInputBytes,
  readInputText,
  unpackInputBytes,
  type InputBytes,
  type InputText,
} from './read-input.js';
export { isTar } from './tar.js';
