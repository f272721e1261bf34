/**
 * @partonfit/core — what every partonfit package stands on (without TensorFlow.js): flavour
 * bases and rotations, the runcard schema, replica seeds, errors, float64 linear algebra and the
 * layouts of the arrays a training step multiplies.
 *
 * @packageDocumentation
 */
export * from './data-folder/index.js';
export * from './errors/index.js';
export * from './flavours/index.js';
export * from './hyperscan/index.js';
export * from './linalg/index.js';
export * from './quadrature/index.js';
export * from './replicas/index.js';
export * from './runcard/index.js';
export * from './seeds/index.js';
export * from './step-inputs/index.js';
export * from './validate/index.js';
export * from './yaml/index.js';
