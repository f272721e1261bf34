/**
 * Losses, one value per replica `(replicas)`, never summed over replicas: the χ² of predictions
 * against per-replica pseudodata or central data with a covariance or eigenbasis structure
 * ({@link Chi2Loss}), and n3fit's positivity and integrability penalties with an on-device
 * Lagrange multiplier ({@link PositivityLoss}, {@link IntegrabilityLoss}).
 *
 * χ² forward + backward (d Σ χ² / d predictions), ms per step, mean of `losses.bench.ts` for one
 * block of 1,000 points on the 2-core development VM:
 *
 * | structure | backend | R=1 | R=10 | R=100 |
 * |---|---|---|---|---|
 * | covariance, shared `(1, n, n)` | wasm | 0.45 | 1.0 | 14.1 |
 * | covariance, per replica `(R, n, n)`, batched | wasm | 0.25 | 12.7 | 120 |
 * | covariance, per replica, broadcast | wasm | 0.28 | 23.9 | 244 |
 * | eigenbasis, per-replica mode weights | wasm | 0.44 | 2.2 | 15.3 |
 * | shared covariance by plain autodiff (baseline) | wasm | 2.2 | 12.8 | 105 |
 * | covariance, shared | cpu | 4.6 | 36 | 272 |
 * | covariance, per replica, batched | cpu | 3.8 | 41 | 389 |
 * | covariance, per replica, broadcast | cpu | 4.5 | 1,382 | 16,494 |
 * | eigenbasis, per-replica mode weights | cpu | 26 | 96 | 652 |
 * | shared covariance by plain autodiff (baseline) | cpu | 13.2 | 86 | 797 |
 *
 * The default per-replica product is `batched` (2× faster than `broadcast` on wasm, far faster
 * on cpu). A per-replica covariance cannot be a plain 2-D product, so wasm runs it in its scalar
 * loop: the eigenbasis structure (shared rotation, per-replica mode weights) is 8× faster at
 * R = 100 and should be preferred for per-replica splits.
 */
export {
  covarianceChi2,
  dataSegments,
  eigenbasisChi2,
  PER_REPLICA_PRODUCTS,
  sharedRotationChi2s,
  type CovarianceBlockTensors,
  type EigenbasisBlockTensors,
  type PerReplicaProduct,
  type SharedRotationBlockTensors,
} from './chi2-forms.js';
export {
  chi2Layout,
  chi2LayoutFromConfig,
  chi2LayoutToConfig,
  hasStructureValues,
  symmetrizeWeights,
  validateChi2Structure,
  type Chi2StructureLayout,
  type CovarianceChi2BlockLayout,
  type CovarianceChi2Layout,
  type EigenbasisChi2BlockLayout,
  type EigenbasisChi2Layout,
} from './chi2-layout.js';
export { Chi2Loss, chi2Loss, DEFAULT_PER_REPLICA_PRODUCT, type Chi2LossArgs } from './chi2-loss.js';
export { shareRotations, SharedRotationChi2s } from './shared-rotation-chi2s.js';
export {
  integrabilityLoss,
  IntegrabilityLoss,
  LagrangePenalty,
  POSITIVITY_ELU_ALPHA,
  positivityLoss,
  PositivityLoss,
  type LagrangePenaltyArgs,
  type PositivityLossArgs,
} from './lagrange-penalty.js';
