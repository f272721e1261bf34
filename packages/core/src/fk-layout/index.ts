export type {
  DisFkTensor,
  FkTensor,
  HadronicFkTensor,
  ObservableOperation,
  ObservableTensors,
} from './fk-tensors.js';
export { OBSERVABLE_OPERATIONS } from './fk-tensors.js';
