export { addTheoryCovariance } from './add-theory-covariance.js';
export {
  covarianceOnFittedData,
  formatCovarianceTable,
  parseCovarianceTable,
  type CovariancePoint,
  type CovarianceTable,
  type TableDataset,
} from './covariance-table.js';
export {
  pointPrescription,
  scaleCombinationsOf,
  scaleLabel,
  type CrossProcessTerm,
  type PointPrescription,
  type ScaleCombination,
} from './point-prescriptions.js';
export { theoryCovariance, type DatasetScalePredictions } from './theory-covariance.js';
