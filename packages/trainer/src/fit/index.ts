export { fitQuality, replicaPredictions } from './closure-metrics.js';
export { runFit, type FitRequest } from './run-fit.js';
