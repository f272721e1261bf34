/**
 * @partonfit/backend — where partonfit meets TensorFlow.js: choosing and initialising the compute
 * backend (`tensorflow`, `native`, `wasm`, `cpu`) and the contracts (names, typed inputs and
 * attributes) of partonfit's own kernels, which the layers call and the native addon implements.
 *
 * @packageDocumentation
 */
export * from './selection/index.js';
export * from './kernels/index.js';
