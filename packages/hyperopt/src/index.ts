/**
 * @partonfit/hyperopt — hyperparameter scans as n3fit's `--hyperopt` runs them: hyperopt's
 * search spaces and a seeded Tree-structured Parzen Estimator (TPE) sampler.
 *
 * @packageDocumentation
 */
export {
  choice,
  evaluateSpace,
  logUniform,
  quantizedUniform,
  randomPoint,
  randomPoints,
  spaceLabels,
  tpePoints,
  uniform,
  validateSpace,
  type ScoredPoint,
  type SpaceNode,
  type SpacePoint,
  type SpaceValue,
  type TpeOptions,
} from './sampler/index.js';
export {
  chi2WithCholesky,
  pointsCovariance,
  type PointsCovariance,
} from './loss/fold-covariance.js';
export { hyperMetrics, type HyperMetrics } from './loss/hyper-metrics.js';
export { bestReplicas, statistic } from './loss/statistics.js';
export {
  fittedDataPenalty,
  foldEndsTrial,
  foldLoss,
  foldsTrained,
  trialLoss,
  trialOutcome,
  weightedFoldLoss,
  type FoldOutcome,
  type KfoldSettings,
  type TrialLoss,
} from './loss/trial-loss.js';
export {
  integrabilityPenalties,
  patiencePenalty,
  SATURATION_X_GRID,
  saturationPenalties,
  type ReplicaStoppingRecord,
} from './penalties/penalties.js';
export { scanSpace } from './scan-space/scan-space.js';
export {
  batchSlots,
  scanInputLayout,
  slotBatch,
  slotNetworkSeed,
  type ScanInputLayout,
  type ScanSlot,
  type SlotBatch,
} from './slots/slot-batch.js';
export { foldData, type FoldData } from './scan/fold-data.js';
export { runScan, type ScanRequest, type ScanSummary } from './scan/run-scan.js';
export { DEFAULT_TRIALS_PER_MODEL } from '@partonfit/core';
export { scanFolder, type ScanFolder } from './scan/scan-folder.js';
export { SAMPLERS, SCAN_SEED, suggestBatch, type SamplerName } from './scan/suggest-batch.js';
export {
  trainBatch,
  type BatchOutcome,
  type TrainBatchOptions,
  type TrainedFold,
} from './scan/train-batch.js';
export {
  finishedTrials,
  trialDocument,
  triesJson,
  type FinishedTrial,
  type TrialRecord,
} from './tries/trial-document.js';
