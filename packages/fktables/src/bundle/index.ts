export {
  BUNDLE_Q0,
  bundleFromArrays,
  loadBundle,
  type Bundle,
  type BundleFromArraysOptions,
  type LoadBundleOptions,
} from './bundle.js';
export { chi2 } from './chi2.js';
