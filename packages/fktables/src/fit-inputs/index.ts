export {
  buildFitInputs,
  resolveRuncardDatasets,
  type ProgressReporter,
  type RuncardDatasets,
} from './build-fit-inputs.js';
export { bundleAsCommonData } from './bundle-commondata.js';
export { cutObservable } from './cut-observable.js';
export {
  closureTruth,
  TOY_PDF_NAME,
  withFakeData,
  type ClosureTruth,
  type FakeData,
} from './fake-data.js';
export type {
  CovarianceBlockValues,
  FitDataset,
  FitFolds,
  FitInputs,
  LagrangeDataset,
} from './fit-inputs.js';
export {
  fitTheoryCovariance,
  theoryCovarianceNeeds,
  UNKNOWN_PROCESS,
  userCovarianceLabel,
  type FitTheoryCovariance,
  type TheoryCovarianceNeeds,
} from './fit-theory-covariance.js';
export { inputPaths, runcardPath, type InputPaths } from './input-paths.js';
export {
  defaultCacheFolder,
  prepareFitInputs,
  type PrepareFitInputsOptions,
  type PreparedFitInputs,
} from './prepare-fit-inputs.js';
export {
  EMBEDDED_PREFIX,
  embeddedObservableAtScale,
  resolveDataset,
  resolveLagrangeDataset,
  type LagrangeInput,
  type ResolvedDataset,
} from './resolve-dataset.js';
export { xGridUnion, type XGridUnion } from './x-grid-union.js';
export { selectInputRows } from './select-rows.js';
