/**
 * Per-replica export: one multi-replica model in, ordinary single-replica PDFs out — tfjs
 * `LayersModel`s of plain dense layers, `weights.h5` per replica, and the fit folder's exportgrids
 * and JSON summaries re-created from those weights.
 *
 * @packageDocumentation
 */
export {
  exportFit,
  TFJS_MODEL_FOLDER,
  type ExportedReplica,
  type ExportFitOptions,
} from './export-fit.js';
export { extractReplica, sliceReplicas } from './extract-replica.js';
export { fitBackendRequest } from './fit-backend.js';
export {
  predictFitReplicas,
  predictFitReplicasForObservables,
  type FitPredictions,
} from './fit-predictions.js';
export { loadFitRuncard, type FitRuncard } from './fit-runcard.js';
export {
  isFitFolder,
  loadFitReplicas,
  type FitMember,
  type FitReplicaSet,
} from './fit-replicas.js';
export { MODEL_FILES, modelFolderHandler } from './model-folder-handler.js';
export { replicaHyperparameters, type HyperparameterSource } from './replica-hyperparameters.js';
export { buildReplicaModel, REPLICA_LAYERS, replicaPdfAt } from './replica-model.js';
export {
  NORMALISATION_SIZE,
  replicaArchitecture,
  replicaWeightShapes,
  type ReplicaArchitecture,
  type ReplicaParameters,
  type ReplicaWeight,
} from './replica-parameters.js';
export { replicaPdfRecords, type ReplicaPdfRecords } from './replica-records.js';
export {
  readReplicaWeights,
  readReplicaWeightsMetadata,
  REPLICA_WEIGHTS_FORMAT,
  writeReplicaWeights,
  type ReplicaWeightsExpectation,
  type ReplicaWeightsMetadata,
} from './replica-weights-file.js';
export { readStartingWeights, setStartingWeights } from './starting-weights.js';
