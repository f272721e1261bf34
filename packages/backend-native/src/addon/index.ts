export {
  loadNativeAddon,
  type LoadedAddon,
  type NativeBackendAvailable,
  type NativeBackendStatus,
  type NativeBackendUnavailable,
} from './load-addon.js';
export type { FourByteArray, NativeAddon, NativeAddonInfo } from './native-addon.js';
export {
  chooseOpenblasCoretype,
  parseCpuFlags,
  type OpenblasCoretypeChoice,
} from './openblas-coretype.js';
