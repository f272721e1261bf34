export { fitQuality, replicaPredictions, type FitQuality } from './closure-metrics.js';
export { runFit, type FitRequest, type FitSummary } from './run-fit.js';
