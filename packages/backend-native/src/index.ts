export { backendStatus } from './register-native-backend.js';
export { measureBlasPeak, type BlasPeak } from './blas-peak.js';
export { NativeBackend } from './native-backend.js';
export { NATIVE_BACKEND_NAME } from './kernels/index.js';
export type {
  NativeBackendAvailable,
  NativeBackendStatus,
  NativeBackendUnavailable,
  OpenblasCoretypeChoice,
} from './addon/index.js';
