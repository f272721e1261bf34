export {
  ReplicaStopping,
  type ReplicaStoppingState,
  type StepLosses,
  type StoppingSettings,
  type StoppingSnapshot,
} from './replica-stopping.js';
