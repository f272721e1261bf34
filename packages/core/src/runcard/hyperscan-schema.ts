import { z } from 'zod';
import {
  flag,
  numberBetween,
  oneOf,
  positiveInteger,
  positiveNumber,
  section,
  text,
} from './schema-helpers.js';
import { ACTIVATIONS, INITIALIZERS, OPTIMIZER_NAMES } from './setting-names.js';

/** A sampled setting: a fixed value, or `{min, max, sampling: uniform|log}` (n3fit's default uniform). */
const sampledSetting = z.union(
  [
    positiveNumber(),
    section({
      min: positiveNumber(),
      max: positiveNumber(),
      sampling: oneOf(['uniform', 'log']).default('uniform'),
    }).refine((range) => range.min <= range.max, { error: 'expected min ≤ max' }),
  ],
  { error: 'expected a number, or {min, max, sampling: uniform|log}' },
);

/**
 * `hyperscan_config` (n3fit 4.1.5's `HyperScanner`): the search space of `partonfit hyperopt`.
 * Each group replaces the `parameters` it names with a sampled value; see `@partonfit/hyperopt`'s
 * `scanSpace` for the samplers and labels, which are upstream's.
 */
export const hyperscanConfigSchema = section({
  stopping: section({
    min_epochs: positiveInteger().optional(),
    max_epochs: positiveInteger().optional(),
    min_patience: numberBetween(0, 1).optional(),
    max_patience: numberBetween(0, 1).optional(),
  }).optional(),
  optimizer: z
    .array(
      section({
        optimizer_name: oneOf(OPTIMIZER_NAMES),
        learning_rate: sampledSetting.optional(),
        clipnorm: sampledSetting.optional(),
      }),
      { error: 'expected a list of optimisers, each {optimizer_name, learning_rate, clipnorm}' },
    )
    .min(1, { error: 'expected at least one optimiser' })
    .optional(),
  positivity: section({
    min_multiplier: positiveNumber().optional(),
    max_multiplier: positiveNumber().optional(),
    min_initial: positiveNumber().optional(),
    max_initial: positiveNumber().optional(),
  }).optional(),
  architecture: section({
    initializers: z
      .union([z.literal('ALL'), z.array(oneOf(INITIALIZERS))], {
        error: `expected ALL or a list of ${INITIALIZERS.join(', ')}`,
      })
      .optional(),
    activations: z
      .array(oneOf(ACTIVATIONS), { error: 'expected a list of activation names' })
      .optional(),
    n_layers: z
      .array(positiveInteger(), { error: 'expected a list of numbers of hidden layers' })
      .optional(),
    min_units: positiveInteger().optional(),
    max_units: positiveInteger().optional(),
    layer_types: z.array(oneOf(['dense']), { error: 'expected a list of layer types' }).optional(),
    max_drop: numberBetween(0, 1).optional(),
  }).optional(),
});

/** Statistics over replicas or folds (n3fit's `IMPLEMENTED_STATS`). */
export const HYPER_STATISTICS = ['average', 'average_best', 'best_worst', 'std'] as const;

/** One of {@link HYPER_STATISTICS}. */
export type HyperStatistic = (typeof HYPER_STATISTICS)[number];

/** The hyperopt losses partonfit computes (n3fit also has `logp` and `chi2p`). */
export const HYPER_LOSS_TYPES = ['chi2', 'phi2'] as const;

/** Penalties of the hyperopt loss (n3fit's `hyper_optimization/penalties.py`). */
export const HYPER_PENALTIES = ['saturation', 'patience', 'integrability'] as const;

const statistic = (what: string) =>
  z.enum(HYPER_STATISTICS, {
    error: `expected a statistic over ${what}: one of ${HYPER_STATISTICS.join(', ')}`,
  });

/**
 * `kfold` (n3fit 4.1.5): the partitions a scan leaves out in turn, and how each trial's loss is
 * made from the held-out partitions' χ².
 */
export const kfoldSchema = section({
  partitions: z
    .array(
      section({
        datasets: z
          .array(text(), { error: 'expected a list of dataset names' })
          .min(1, { error: 'expected at least one dataset' }),
        /** Multiplies the partition's loss, before the threshold check (n3fit's docs). */
        weight: positiveNumber().default(1),
        /** The partition stays in training and validation; its χ² is still the fold's loss. */
        overfit: flag().default(false),
      }),
      { error: 'expected a list of partitions, each {datasets: [...]}' },
    )
    .min(1, { error: 'expected at least one partition' }),
  loss_type: z
    .enum(HYPER_LOSS_TYPES, {
      error: `expected one of ${HYPER_LOSS_TYPES.join(', ')} (n3fit's logp and chi2p are not supported)`,
    })
    .default('chi2'),
  replica_statistic: statistic('replicas').default('average'),
  fold_statistic: statistic('folds').optional(),
  /** Older runcards' name of the statistic over folds (`fold_statistic` wins). */
  target: z
    .enum(HYPER_STATISTICS, {
      error: `expected one of ${HYPER_STATISTICS.join(', ')} (n3fit's fit_distance and fit_future_tests are not supported)`,
    })
    .optional(),
  penalties: z
    .array(oneOf(HYPER_PENALTIES), { error: 'expected a list of penalty names' })
    .default([]),
  penalties_in_loss: flag().default(false),
  /** A trial whose loss on a fold exceeds it fails (n3fit's HYPER_THRESHOLD, 50). */
  threshold: positiveNumber().default(50),
  /** The share of replicas with the best validation loss that count (n3fit's 0.85). */
  reduce_proportion: numberBetween(0, 1)
    .refine((value) => value > 0, { error: 'expected a number in (0, 1]' })
    .default(0.85),
  /** n3fit's printing switches: partonfit reports progress per batch. */
  verbosity: z.record(z.string(), z.unknown()).optional(),
});
