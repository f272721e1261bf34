/**
 * Iterating a fit: the effective exponents of its replicas, upstream's rule for the next
 * preprocessing ranges, and the runcard of the next fit written from this one's text.
 *
 * @packageDocumentation
 */
export {
  alphaEffective,
  betaEffective,
  effectiveExponentGrid,
  exponentBand,
  exponentBands,
  type EffectiveExponent,
  type EffectiveExponentGrid,
  type ExponentBand,
} from './effective-exponents.js';
export {
  iteratedRuncardText,
  type RuncardIteration,
  type RuncardSeed,
} from './iterated-runcard.js';
export {
  ALPHA_CEILING,
  BETA_FLOOR,
  INTEGRABLE_ALPHA_CEILING,
  LARGE_X_POINTS,
  nextLargexRange,
  nextPreprocessing,
  nextSmallxRange,
  preprocessingRangeText,
  RANGE_SIGNIFICANT_DIGITS,
  significantDigits,
  SMALL_X_POINTS,
  type FlavourPreprocessing,
  type PreprocessingRange,
} from './next-preprocessing.js';
