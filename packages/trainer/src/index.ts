/**
 * @partonfit/trainer — the multi-replica training loop and the `partonfit` command line.
 *
 * @packageDocumentation
 */
export * from './checkpoint/index.js';
export * from './export/index.js';
export * from './fit/index.js';
export * from './lagrange/index.js';
export * from './methodology/index.js';
export * from './model/index.js';
export * from './optimizers/index.js';
export * from './replica-mask/index.js';
export * from './stopping/index.js';
export * from './training/index.js';
