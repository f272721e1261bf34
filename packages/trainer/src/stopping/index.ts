export {
  ReplicaStopping,
  STOPPING_STATE_KEYS,
  type ReplicaStoppingState,
  type StepLosses,
  type StoppingSettings,
  type StoppingSnapshot,
} from './replica-stopping.js';
