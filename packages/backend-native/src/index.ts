export { backendStatus } from './register-native-backend.js';
export { measureBlasPeak, type BlasPeak } from './blas-peak.js';
export { NativeBackend } from './native-backend.js';
export { NATIVE_BACKEND_NAME } from './kernels/index.js';
export { NATIVE_ADDON_VARIABLE, OWN_KERNELS_BLAS } from './addon/index.js';
export type {
  NativeAddonInfo,
  NativeBackendAvailable,
  NativeBackendStatus,
  NativeBackendUnavailable,
  OpenblasCoretypeChoice,
  VectorPath,
} from './addon/index.js';
