/**
 * @partonfit/evolution — the strong coupling αs(Q) and DGLAP evolution of PDFs from the fitting
 * scale Q0 to any scale, in float64, as linear operators applied to all replicas at once.
 *
 * @packageDocumentation
 */
export { betaCoefficients, betaFunction } from './beta-function.js';
export {
  createStrongCoupling,
  type CouplingMethod,
  strongCouplingOfTheory,
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
export { activeFlavours, LIGHT_FLAVOURS, thresholdScales2 } from './thresholds.js';
