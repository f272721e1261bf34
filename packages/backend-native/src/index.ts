export { backendStatus } from './register-native-backend.js';
export { NativeBackend } from './native-backend.js';
export {
  LUMINOSITY_CONTRACTION,
  LUMINOSITY_CONTRACTION_GRAD,
  NATIVE_BACKEND_NAME,
} from './kernels/index.js';
export type {
  NativeBackendAvailable,
  NativeBackendStatus,
  NativeBackendUnavailable,
  OpenblasCoretypeChoice,
} from './addon/index.js';
