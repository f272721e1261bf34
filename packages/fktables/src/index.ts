/**
 * @partonfit/fktables — FK-table readers, flavour-sparsity and mask precomputation, compound
 * observables, experimental data, covariances, pseudodata, training/validation splits and the
 * cached fit inputs. The readers arrive with the "FK tables, experimental data and the
 * precomputed fit inputs" issue; this release only reserves the package.
 *
 * @packageDocumentation
 */
export {};
