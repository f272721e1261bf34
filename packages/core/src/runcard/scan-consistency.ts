import type { RuncardIssue } from '../errors/runcard-error.js';
import type { Runcard } from './runcard.js';
import { MAX_NODES_PER_LAYER } from './schema.js';

type Bounds = readonly [key: string, low: number | undefined, high: number | undefined];

/** `min_x ≤ max_x` for each pair that gives both. */
function orderedBounds(at: string, pairs: readonly Bounds[]): RuncardIssue[] {
  return pairs.flatMap(([key, low, high]) =>
    low !== undefined && high !== undefined && low > high
      ? [{ keyPath: `${at}.min_${key}`, problem: `min_${key} ${low} is above max_${key} ${high}` }]
      : [],
  );
}

/**
 * Checks of `hyperscan_config` and `kfold` that the schema cannot express: bounds in order,
 * units given with `n_layers`, no dropout (partonfit has none), and partitions that name fitted
 * datasets.
 */
export function checkScan(runcard: Runcard): RuncardIssue[] {
  const issues: RuncardIssue[] = [];
  const scan = runcard.hyperscan_config;
  if (scan !== undefined) {
    const { stopping, positivity, architecture } = scan;
    issues.push(
      ...orderedBounds('hyperscan_config.stopping', [
        ['epochs', stopping?.min_epochs, stopping?.max_epochs],
        ['patience', stopping?.min_patience, stopping?.max_patience],
      ]),
      ...orderedBounds('hyperscan_config.positivity', [
        ['multiplier', positivity?.min_multiplier, positivity?.max_multiplier],
        ['initial', positivity?.min_initial, positivity?.max_initial],
      ]),
      ...orderedBounds('hyperscan_config.architecture', [
        ['units', architecture?.min_units, architecture?.max_units],
      ]),
    );
    if (
      architecture?.n_layers !== undefined &&
      architecture.n_layers.length > 0 &&
      (architecture.min_units === undefined || architecture.max_units === undefined)
    ) {
      issues.push({
        keyPath: 'hyperscan_config.architecture.n_layers',
        problem: 'sampling the number of layers needs min_units and max_units',
      });
    }
    if ((architecture?.max_units ?? 0) > MAX_NODES_PER_LAYER) {
      issues.push({
        keyPath: 'hyperscan_config.architecture.max_units',
        problem: `expected at most ${MAX_NODES_PER_LAYER} units (partonfit's widest layer)`,
      });
    }
    if ((architecture?.max_drop ?? 0) > 0) {
      issues.push({
        keyPath: 'hyperscan_config.architecture.max_drop',
        problem: 'partonfit does not train with dropout: set max_drop: 0 or remove it',
      });
    }
  }
  const partitions = runcard.kfold?.partitions ?? [];
  const fitted = new Set(runcard.dataset_inputs.map((input) => input.dataset));
  partitions.forEach((partition, p) => {
    partition.datasets.forEach((name, d) => {
      if (!fitted.has(name)) {
        issues.push({
          keyPath: `kfold.partitions[${p}].datasets[${d}]`,
          problem: `${name} is not one of the runcard's dataset_inputs`,
        });
      }
    });
  });
  return issues;
}

/**
 * Trials per model of a new scan, for `partonfit hyperopt` and `partonfit submit --hyperopt`. A
 * model's per-row cost falls as it fills (the example scan's step: 3.0 ms at 12 rows, 3.8 ms at
 * 24, 4.8 ms at 48, 1.9 ms for one row), so 16 trials × 3 folds train twice the rows of 8 in 1.26
 * times the step; hyperopt's TPE itself draws its first 20 trials at random, so a first batch of
 * 16 random ones takes nothing from the search.
 */
export const DEFAULT_TRIALS_PER_MODEL = 16;

/**
 * What `partonfit hyperopt` needs of a runcard beyond a fit's: a search space
 * (`hyperscan_config`), the partitions (`kfold`), two replicas or more for the `phi2` loss, and
 * no per-replica settings of its own (a scan samples every trial's parameters).
 *
 * @param replicas - replicas of every trial on every fold
 */
export function scanRequirements(runcard: Runcard, replicas: number): RuncardIssue[] {
  const issues: RuncardIssue[] = [];
  if (runcard.hyperscan_config === undefined) {
    issues.push({
      keyPath: 'hyperscan_config',
      problem:
        'a scan needs a search space: add hyperscan_config (stopping, optimizer, positivity, architecture)',
    });
  }
  if (runcard.kfold === undefined) {
    issues.push({
      keyPath: 'kfold',
      problem:
        'a scan needs kfold.partitions: the datasets each fold holds out to measure the trials',
    });
  } else if (runcard.kfold.loss_type === 'phi2' && replicas < 2) {
    issues.push({
      keyPath: 'kfold.loss_type',
      problem: 'phi2 measures the spread of the replicas: scan with --replicas 2 or more',
    });
  }
  for (const key of ['parameters_per_replica', 'trial_specs'] as const) {
    if (runcard[key] !== undefined) {
      issues.push({
        keyPath: key,
        problem: 'a scan samples every trial’s parameters: remove it from the scan runcard',
      });
    }
  }
  if (runcard.load !== undefined) {
    issues.push({
      keyPath: 'load',
      problem:
        'a scan trains every trial from its own random weights (its networks differ): remove it from the scan runcard',
    });
  }
  return issues;
}
