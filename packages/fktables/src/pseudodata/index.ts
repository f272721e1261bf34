export {
  assertBlocksCover,
  blockedDataSize,
  factorCovarianceBlocks,
  type BlockCovariance,
  type CovarianceBlockFactor,
  type DataBlock,
} from './covariance-blocks.js';
export { pseudodataForReplicas, replicaPseudodata, type PseudodataSource } from './pseudodata.js';
