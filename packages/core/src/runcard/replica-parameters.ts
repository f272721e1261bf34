import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { FitParameters, Runcard } from './runcard.js';
import { isMapping } from '../validate/is-mapping.js';

/**
 * The `parameters` a replica may set for itself (in `parameters_per_replica`, or from a scan's
 * trial through `trial_specs`). Every other setting of `parameters` (`threshold_chi2`,
 * `stopping_delta`, `positivity.threshold`, `feature_scaling_points`, …) is shared by all
 * replicas of a fit.
 */
export const REPLICA_HYPERPARAMETERS = [
  'nodes_per_layer',
  'activation_per_layer',
  'initializer',
  'layer_type',
  'dropout',
  'optimizer',
  'epochs',
  'stopping_patience',
  'positivity',
  'integrability',
] as const;

/** One of {@link REPLICA_HYPERPARAMETERS}. */
export type ReplicaHyperparameter = (typeof REPLICA_HYPERPARAMETERS)[number];

/** What a replica may set of `parameters.positivity` and `parameters.integrability`. */
export const REPLICA_LAGRANGE_SETTINGS = ['initial', 'multiplier'] as const;

/** Whether the runcard gives its replicas hyperparameters of their own. */
export function hasParametersPerReplica(runcard: Runcard): boolean {
  return runcard.parameters_per_replica !== undefined;
}

/**
 * The entry of `parameters_per_replica` replica `replica` takes: `(replica − 1) mod N` for N
 * entries, or undefined when the runcard has none (every replica takes `parameters`).
 *
 * @param replica - the replica number, from 1
 * @throws InvalidArgumentError for a replica number that is not a positive integer
 */
export function replicaParametersEntry(runcard: Runcard, replica: number): number | undefined {
  if (!Number.isInteger(replica) || replica < 1) {
    throw new InvalidArgumentError({
      argument: 'replica',
      problem: `expected a replica number from 1, got ${replica}`,
    });
  }
  const entries = runcard.parameters_per_replica;
  return entries === undefined ? undefined : (replica - 1) % entries.length;
}

/**
 * The whole `parameters` section replica `replica` fits with: its entry of
 * `parameters_per_replica` (see {@link replicaParametersEntry}), already merged onto
 * `parameters` when the runcard was read, or `parameters` itself.
 *
 * @param replica - the replica number, from 1
 */
export function replicaParameters(runcard: Runcard, replica: number): FitParameters {
  const entry = replicaParametersEntry(runcard, replica);
  return entry === undefined
    ? runcard.parameters
    : (runcard.parameters_per_replica?.[entry] ?? runcard.parameters);
}

/**
 * One replica's settings (as written, before validation) merged onto `parameters`: each setting
 * given replaces the base's; `optimizer`, `positivity` and `integrability` merge key by key, but
 * an entry that names another optimiser without a learning rate takes that optimiser's default
 * learning rate, not the base's.
 */
export function mergeReplicaParameters(
  base: unknown,
  settings: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const baseSection = isMapping(base) ? base : {};
  const merged: Record<string, unknown> = { ...baseSection, ...settings };
  for (const key of ['positivity', 'integrability'] as const) {
    const own = settings[key];
    const inherited = baseSection[key];
    if (isMapping(own) && isMapping(inherited)) merged[key] = { ...inherited, ...own };
  }
  const optimizer = settings.optimizer;
  const baseOptimizer = baseSection.optimizer;
  if (isMapping(optimizer) && isMapping(baseOptimizer)) {
    const renamed =
      optimizer.optimizer_name !== undefined &&
      optimizer.optimizer_name !== baseOptimizer.optimizer_name;
    const { learning_rate: baseRate, ...inherited } = baseOptimizer;
    merged.optimizer = {
      ...inherited,
      ...(renamed ? {} : { learning_rate: baseRate }),
      ...optimizer,
    };
  }
  return merged;
}
