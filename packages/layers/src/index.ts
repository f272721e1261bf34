/**
 * @partonfit/layers — TensorFlow.js layers for many replicas at once: MultiDense,
 * Preprocessing, feature scaling, flavour rotations, sum rules and FK observables. The layers
 * arrive with the "@partonfit/layers" issue; this release only reserves the package.
 *
 * @packageDocumentation
 */
export {};
