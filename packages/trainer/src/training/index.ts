export {
  disposeLagrangeTerms,
  FitObjective,
  lagrangeOptions,
  lagrangePenalties,
  lagrangeTerms,
  type FitLosses,
  type FitObjectiveOptions,
  type LagrangeOptions,
  type LagrangeTerm,
} from './fit-objective.js';
export {
  buildTrainingParts,
  trainReplicas,
  type CheckpointOptions,
  type EndingReplicas,
  type EndingReplicasResult,
  type TrainingOptions,
  type TrainingProgress,
  type TrainingResult,
} from './train-replicas.js';
export { replicaFitEnds, replicaReadBacks, type ReplicaReadBacks } from './replica-fit-ends.js';
export { TrainingInterruptedError } from './training-interrupted-error.js';
export {
  disposeStepLosses,
  trainingStep,
  TrainingSteps,
  type TrainingReadBack,
  type TrainingStepLosses,
  type TrainingStepOptions,
  type TrainingStepsOptions,
} from './training-step.js';
export {
  captureCheckpoint,
  disposeTrainingParts,
  restoreCheckpoint,
  type TrainingLoopState,
  type TrainingParts,
} from './training-state.js';
