import type { FitParameters, RankedTrial } from '@partonfit/core';

/** Where a replica's hyperparameters came from, when they are its own. */
export interface HyperparameterSource {
  /** Its entry of `parameters_per_replica` (0-based). */
  readonly entry: number;
  /** With `trial_specs`: the scan's trial behind the entry and the scan's `tries.json`. */
  readonly trial?: { readonly ranked: RankedTrial; readonly file: string };
}

/**
 * The `hyperparameters` record of a replica's `<fit>.json` for a replica with hyperparameters of
 * its own: upstream n3fit's keys (`optimizer`, `learning_rate`, `clipnorm`, `epochs`,
 * `stopping_patience`, `initial`, `nodes_per_layer`, `number_of_layers` — the hidden layers —
 * `activation`, `layer_type`, `initializer`, `dropout`) plus partonfit's `activation_per_layer`,
 * `multiplier` (positivity), `entry` and, for a trial of `trial_specs`, `trial` (its hyperopt id,
 * loss, rank among the kept trials and the scan file).
 */
export function replicaHyperparameters(
  parameters: FitParameters,
  source: HyperparameterSource,
): Record<string, unknown> {
  const { optimizer, positivity } = parameters;
  const trial = source.trial;
  return {
    optimizer: optimizer.optimizer_name,
    learning_rate: optimizer.learning_rate,
    clipnorm: optimizer.clipnorm,
    epochs: parameters.epochs,
    stopping_patience: parameters.stopping_patience,
    initial: positivity.initial ?? null,
    multiplier: positivity.multiplier ?? null,
    nodes_per_layer: [...parameters.nodes_per_layer],
    number_of_layers: parameters.nodes_per_layer.length - 1,
    activation: parameters.activation_per_layer[0],
    activation_per_layer: [...parameters.activation_per_layer],
    layer_type: parameters.layer_type,
    initializer: parameters.initializer,
    dropout: parameters.dropout,
    entry: source.entry,
    ...(trial === undefined
      ? {}
      : {
          trial: {
            tid: trial.ranked.trial.tid,
            loss: Number.isFinite(trial.ranked.trial.loss) ? trial.ranked.trial.loss : null,
            rank: trial.ranked.rank,
            file: trial.file,
          },
        }),
  };
}
