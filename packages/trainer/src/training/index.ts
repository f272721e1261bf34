export { FitObjective, type FitLosses, type LagrangeOptions } from './fit-objective.js';
export {
  buildTrainingParts,
  trainReplicas,
  type CheckpointOptions,
  type TrainingOptions,
  type TrainingProgress,
  type TrainingResult,
} from './train-replicas.js';
