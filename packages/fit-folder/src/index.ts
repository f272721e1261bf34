/**
 * @partonfit/fit-folder — the folder a fit writes, as n3fit lays it out: per-replica exportgrids,
 * JSON summaries and `chi2exps.log`, the fit-quality numbers (arc lengths, integrability),
 * postfit, which selects the replicas and writes the final set, and the iteration of a fit (the
 * replicas' effective exponents and the next runcard). No TensorFlow.js: reports,
 * cluster merges and research code read fit folders with this package alone.
 *
 * @packageDocumentation
 */
export * from './folder/index.js';
export * from './iterate/index.js';
export * from './postfit/index.js';
