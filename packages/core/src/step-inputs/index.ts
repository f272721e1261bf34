export type {
  Chi2Structure,
  CovarianceChi2,
  CovarianceChi2Block,
  EigenbasisChi2,
  EigenbasisChi2Block,
} from './chi2-structures.js';
export type {
  DisFkTensor,
  FkTensor,
  HadronicFkTensor,
  ObservableOperation,
  ObservableTensors,
} from './fk-tensors.js';
export { OBSERVABLE_OPERATIONS, OPERAND_COUNTS } from './fk-tensors.js';
