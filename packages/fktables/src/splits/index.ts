export { chi2FromStructure, chi2StructureBytes } from './chi2-reference.js';
export {
  eigenbasisSplit,
  type EigenbasisSplit,
  type EigenbasisSplitOptions,
} from './eigenbasis-split.js';
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
