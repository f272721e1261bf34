/**
 * Seeded synthetic workloads with the shapes of a real global fit, built into `FitInputs` with
 * fktables' own builders (pseudodata, diagonal-basis splits, shared experimental χ²).
 *
 * @packageDocumentation
 */
export { benchRuncard, benchRuncardCard, NNPDF40_EPOCHS } from './bench-runcard.js';
export { buildWorkload, type BenchWorkload } from './build-workload.js';
export { firstReplicas } from './first-replicas.js';
export {
  STAT_FLOOR_FRACTION,
  STAT_FRACTION,
  SYSTEMATIC_FRACTIONS,
  syntheticCovarianceBlocks,
} from './synthetic-covariance.js';
export {
  applyKinematicLimits,
  kinematicLimits,
  luminosityChannels,
  randomDisTable,
  randomHadronicTable,
  SYNTHETIC_FILE,
  SYNTHETIC_Q0,
} from './synthetic-tables.js';
export {
  experimentBlockSizes,
  workloadCounts,
  type HadronicKinematics,
  type SyntheticDatasetSpec,
  type SyntheticLagrangeSpec,
  type WorkloadCounts,
  type WorkloadSpec,
  type XGridSpec,
} from './workload-spec.js';
export {
  DIS_WORKLOAD,
  NNPDF40_DIS_CHANNELS,
  NNPDF40_SPARSE_WORKLOAD,
  NNPDF40_WORKLOAD,
  RATIO_WORKLOADS,
  WORKLOADS,
} from './workloads.js';
