export { fitQuality, replicaPredictions, type FitQuality } from './closure-metrics.js';
export { runFit, type DivergedReplica, type FitRequest, type FitSummary } from './run-fit.js';
