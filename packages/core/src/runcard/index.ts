export {
  HYPER_LOSS_TYPES,
  HYPER_PENALTIES,
  HYPER_STATISTICS,
  hyperscanConfigSchema,
  kfoldSchema,
  type HyperStatistic,
} from './hyperscan-schema.js';
export { DEFAULT_TRIALS_PER_MODEL, scanRequirements } from './scan-consistency.js';
export {
  loadRuncard,
  parseDatasetInput,
  parseRuncard,
  type LoadRuncardOptions,
  type ParseRuncardOptions,
  type ValidatedRuncard,
} from './load-runcard.js';
export {
  hasParametersPerReplica,
  mergeReplicaParameters,
  REPLICA_HYPERPARAMETERS,
  REPLICA_LAGRANGE_SETTINGS,
  replicaParameters,
  replicaParametersEntry,
  type ReplicaHyperparameter,
} from './replica-parameters.js';
export type { BasisFlavourSettings, DatasetInput, FitParameters, Runcard } from './runcard.js';
export {
  ACTIVATIONS,
  datasetInputSchema,
  OPTIMIZER_NAMES,
  INITIALIZERS,
  MAX_NODES_PER_LAYER,
  OPTIMIZER_LEARNING_RATES,
  PARAMETER_KEYS,
  POINT_PRESCRIPTION_NAMES,
  runcardSchema,
  SUM_RULE_MODES,
  type OptimizerName,
  type PointPrescriptionName,
} from './schema.js';
export { closeNames } from './suggest-key.js';
export {
  canonicalJson,
  runcardDifference,
  runcardDigest,
  type RuncardDifference,
} from './runcard-digest.js';
