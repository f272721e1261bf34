export { correlationMatrix } from './correlation-matrix.js';
export { covarianceCholesky } from './covariance-cholesky.js';
export {
  covarianceBlocks,
  covarianceMatrix,
  type CovarianceBlock,
  type CovarianceOptions,
} from './covariance-matrix.js';
export { datasetBlocks, datasetOffsets, type DatasetBlock } from './dataset-blocks.js';
export { covarianceAsNdarray } from './covariance-ndarray.js';
