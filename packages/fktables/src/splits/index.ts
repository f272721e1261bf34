export { chi2FromStructure, chi2StructureBytes } from './chi2-reference.js';
export { datasetCovarianceChi2 } from './dataset-covariance-chi2.js';
export { correlationEigensystem, type CorrelationEigensystem } from './correlation-eigensystem.js';
export {
  startCorrelationEigensystems,
  type CorrelationEigensystemsOptions,
  type PendingCorrelationEigensystems,
} from './correlation-eigensystems-in-parallel.js';
export {
  eigenbasisSplit,
  type EigenbasisSplit,
  type EigenbasisSplitOptions,
} from './eigenbasis-split.js';
export { heldOutMasks, type DataFolds } from './held-out.js';
export {
  complementMasks,
  maskedCovarianceChi2,
  sharedCovarianceChi2,
} from './masked-covariance.js';
export {
  shuffledIndices,
  splitSeed,
  trainingPointMasks,
  type DatasetSpan,
  type SplitSeeding,
} from './point-split.js';
