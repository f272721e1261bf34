/**
 * @partonfit/core — what every partonfit package stands on: compute-backend selection, flavour
 * bases and rotations, the runcard schema, replica seeds, errors and float64 linear algebra.
 *
 * @packageDocumentation
 */
export * from './backend/index.js';
export * from './errors/index.js';
export * from './fk-layout/index.js';
export * from './flavours/index.js';
export * from './linalg/index.js';
export * from './runcard/index.js';
export * from './seeds/index.js';
