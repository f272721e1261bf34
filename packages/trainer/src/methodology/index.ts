export {
  replicaMethodology,
  replicaTrainingOrder,
  type NetworkGroup,
  type ReplicaMethodology,
} from './replica-methodology.js';
