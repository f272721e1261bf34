export { clipByReplicaNorm } from './clip-by-norm.js';
export {
  resolveOptimizerSettings,
  type ReplicaOptimizerSettings,
  type ResolvedOptimizerSettings,
} from './optimizer-settings.js';
export type { ReplicaOptimizerState } from './optimizer-state.js';
export {
  createReplicaOptimizer,
  type ApplyGradientsOptions,
  type ReplicaOptimizer,
} from './replica-optimizer.js';
