/**
 * @partonfit/fktables — FK-table readers, flavour-sparsity and mask precomputation, compound
 * observables, experimental data, covariances, theory covariances, pseudodata, training/validation splits and the
 * cached fit inputs.
 *
 * @packageDocumentation
 */
export * from './bundle/index.js';
export * from './closure/index.js';
export * from './commondata/index.js';
export * from './covariance/index.js';
export * from './cuts/index.js';
export * from './fit-inputs/index.js';
export * from './fktable/index.js';
export * from './pseudodata/index.js';
export * from './splits/index.js';
export * from './theory-covariance/index.js';
