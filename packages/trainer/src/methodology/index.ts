export {
  replicaMethodology,
  replicaTrainingOrder,
  type NetworkGroup,
  type NetworkGrouping,
  type ReplicaMethodology,
} from './replica-methodology.js';
