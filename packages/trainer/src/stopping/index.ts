export {
  ReplicaStopping,
  type StepLosses,
  type StoppingSettings,
  type StoppingSnapshot,
} from './replica-stopping.js';
