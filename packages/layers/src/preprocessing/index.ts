/**
 * Preprocessing: the small- and large-x prefactor x^(1−α)(1−x)^β of every replica and fitted
 * flavour, with per-replica seeded exponents.
 *
 * @packageDocumentation
 */
export {
  checkPreprocessingFlavours,
  initialExponents,
  type InitialExponents,
  type PreprocessingFlavour,
} from './exponents.js';
export { Preprocessing, preprocessing, type PreprocessingArgs } from './preprocessing.js';
