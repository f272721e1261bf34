/**
 * @partonfit/layers — TensorFlow.js layers for many replicas at once: MultiDense,
 * Preprocessing, feature scaling, flavour rotations, sum rules, FK observables and losses.
 *
 * @packageDocumentation
 */
export * from './feature-scaling/index.js';
export * from './losses/index.js';
export * from './multi-dense/index.js';
export * from './observables/index.js';
export * from './ops/index.js';
export * from './preprocessing/index.js';
export * from './replica/index.js';
export * from './rotation/index.js';
export * from './sum-rules/index.js';
