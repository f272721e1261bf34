export { backendStatus } from './register-native-backend.js';
export { NativeBackend } from './native-backend.js';
export { NATIVE_BACKEND_NAME } from './kernels/index.js';
export type {
  NativeBackendAvailable,
  NativeBackendStatus,
  NativeBackendUnavailable,
  OpenblasCoretypeChoice,
} from './addon/index.js';
