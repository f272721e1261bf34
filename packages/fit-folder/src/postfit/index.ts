/**
 * Postfit: upstream NNPDF's replica selection (positivity, integrability, χ² and arc-length
 * outliers) and the final set of a fit, with replica 0 the average.
 *
 * @packageDocumentation
 */
export {
  DEFAULT_VETO_THRESHOLDS,
  determineVetoes,
  INTEGRABILITY_THRESHOLD,
  NSIGMA_DISCARD_ARCLENGTH,
  NSIGMA_DISCARD_CHI2,
  type ReplicaFitInfo,
  type VetoThresholds,
} from './fit-veto.js';
export {
  POSTFIT_FILES,
  runPostfit,
  type DiscardedReplica,
  type PostfitOptions,
  type PostfitResult,
  type SelectedReplica,
} from './postfit.js';
export { readReplicaFitInfo } from './replica-fit-info.js';
