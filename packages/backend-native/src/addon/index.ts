export {
  loadNativeAddon,
  NATIVE_ADDON_VARIABLE,
  type LoadedAddon,
  type NativeBackendAvailable,
  type NativeBackendStatus,
  type NativeBackendUnavailable,
} from './load-addon.js';
export { OWN_KERNELS_BLAS } from './native-addon.js';
export type { FourByteArray, NativeAddon, NativeAddonInfo, VectorPath } from './native-addon.js';
export {
  chooseOpenblasCoretype,
  parseCpuFlags,
  type OpenblasCoretypeChoice,
} from './openblas-coretype.js';
