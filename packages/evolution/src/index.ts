/**
 * @partonfit/evolution — the strong coupling αs(Q) and DGLAP evolution of PDFs from the fitting
 * scale Q0 to any scale, in float64, as linear operators applied to all replicas at once.
 *
 * @packageDocumentation
 */
export { applyEvolutionOperator } from './apply-operator.js';
export { betaCoefficients, betaFunction } from './beta-function.js';
export { convolutionMatrix } from './convolution.js';
export {
  buildEvolutionOperator,
  type EvolutionOperator,
  type OperatorBlock,
} from './evolution-operator.js';
export {
  buildEvolutionOperatorInParallel,
  type ParallelBuildOptions,
} from './operator-in-parallel.js';
export {
  DEFAULT_INTERPOLATION_DEGREE,
  DEFAULT_MAX_STEP,
  type EvolutionOptions,
  type ThresholdKnots,
} from './evolution-run.js';
export {
  EMBEDDED_THEORY_NAMES,
  embeddedTheoryCard,
  loadTheoryCard,
  TOY_LH_LO_THEORY,
} from './embedded-theory.js';
export { evolvePdfs } from './evolve-pdfs.js';
export { ekoEvolutionOperator, type EkoInput } from './eko/eko-evolution-operator.js';
export { parseEkoOperator, readEkoOperator, type EkoOperator } from './eko/eko-operator.js';
export { writeEvolvedLhapdfSet, type EvolvedSet } from './evolved-lhapdf-set.js';
export {
  interpolationMatrix,
  logLagrangeBasis,
  mellinWeights,
  type LogLagrangeBasis,
} from './interpolation.js';
export { addKernels, type Kernel, type SplittingKernels } from './kernels/kernel.js';
export { NNLO_MATCHING_KERNELS, type MatchingKernels } from './kernels/matching-kernels.js';
export { kernelMoment } from './kernels/moments.js';
export { splittingKernels } from './kernels/splitting-functions.js';
export {
  cachedEvolutionOperator,
  OPERATOR_CACHE_FORMAT,
  operatorCacheKey,
  type CachedEvolutionOperator,
  type OperatorCacheOptions,
} from './operator-cache.js';
export { lhapdfQGrid, type QGridOptions } from './q-grid.js';
export { interpolateReplicas } from './replica-interpolation.js';
export {
  createStrongCoupling,
  strongCouplingOfTheory,
  type CouplingMethod,
  type StrongCoupling,
  type StrongCouplingSettings,
} from './strong-coupling.js';
export {
  parseTheoryCard,
  readTheoryCard,
  type EvolutionMethod,
  type HeavyQuarkValues,
  type PerturbativeOrder,
  type TheoryCard,
} from './theory-card.js';
export {
  activeFlavours,
  flavoursAllowedAt,
  LIGHT_FLAVOURS,
  maxPdfFlavours,
  thresholdScales2,
  thresholdsOfTheory,
} from './thresholds.js';
