import { INITIALIZERS, RuncardError, type FitParameters, type Runcard } from '@partonfit/core';
import {
  choice,
  logUniform,
  quantizedUniform,
  spaceLabels,
  uniform,
  type SpaceValue,
} from '../sampler/index.js';

/** n3fit's `HyperScanner` steps between the min and max of patience and dropout. */
const STEPS = 5;

type ScanConfig = NonNullable<Runcard['hyperscan_config']>;
type SampledSetting = NonNullable<NonNullable<ScanConfig['optimizer']>[number]['learning_rate']>;

/** A fixed value, or n3fit's `optimizer_arg_wrapper` sampler of a `{min, max, sampling}` range. */
function sampledSetting(label: string, setting: SampledSetting): SpaceValue {
  if (typeof setting === 'number') return setting;
  return setting.sampling === 'log'
    ? logUniform(label, setting.min, setting.max)
    : uniform(label, setting.min, setting.max);
}

/** n3fit's `hp_quniform` with `steps`: q = (max − min)/steps; a constant when min = max. */
function steppedUniform(label: string, low: number, high: number): SpaceValue {
  return low === high ? low : quantizedUniform(label, low, high, (high - low) / STEPS);
}

/** The samplers `hyperscan_config` puts in place of the `parameters` they name. */
function samplers(config: ScanConfig, parameters: FitParameters): Record<string, SpaceValue> {
  const space: Record<string, SpaceValue> = {};
  const { stopping, optimizer, positivity, architecture } = config;
  if (stopping?.min_epochs !== undefined && stopping.max_epochs !== undefined) {
    space.epochs = quantizedUniform('epochs', stopping.min_epochs, stopping.max_epochs, 1, {
      integer: true,
    });
  }
  if (stopping?.min_patience !== undefined || stopping?.max_patience !== undefined) {
    space.stopping_patience = steppedUniform(
      'stopping_patience',
      stopping.min_patience ?? 0,
      stopping.max_patience ?? 1,
    );
  }
  if (optimizer !== undefined) {
    space.optimizer = choice(
      'optimizer',
      optimizer.map((option) => {
        const name = option.optimizer_name;
        return {
          optimizer_name: name,
          ...(option.learning_rate === undefined
            ? {}
            : { learning_rate: sampledSetting(`${name}_learning_rate`, option.learning_rate) }),
          ...(option.clipnorm === undefined
            ? {}
            : { clipnorm: sampledSetting(`${name}_clipnorm`, option.clipnorm) }),
        };
      }),
    );
  }
  if (positivity !== undefined) {
    const sampled: Record<string, SpaceValue> = Object.fromEntries(
      Object.entries(parameters.positivity).filter(([, value]) => value !== undefined),
    ) as Record<string, SpaceValue>;
    if (positivity.max_multiplier !== undefined) {
      sampled.multiplier = uniform(
        'multiplier',
        positivity.min_multiplier ?? 1,
        positivity.max_multiplier,
      );
    }
    if (positivity.min_initial !== undefined && positivity.max_initial !== undefined) {
      sampled.initial = logUniform('initial', positivity.min_initial, positivity.max_initial);
    }
    space.positivity = sampled;
  }
  if (architecture !== undefined) {
    const outputs = parameters.nodes_per_layer.at(-1) ?? 8;
    const { activations = [], n_layers: layers = [], layer_types: layerTypes = [] } = architecture;
    const initializers =
      architecture.initializers === 'ALL' ? [...INITIALIZERS] : (architecture.initializers ?? []);
    if (activations.length > 0)
      space.activation_per_layer = choice('activation_per_layer', activations);
    if (layers.length > 0) {
      const low = architecture.min_units ?? 0;
      const high = architecture.max_units ?? 0;
      space.nodes_per_layer = choice(
        'nodes_per_layer',
        layers.map((n) => [
          ...Array.from({ length: n }, (_, i) =>
            quantizedUniform(`nl${n}:-${i}/${n}`, low, high, 1, { integer: true }),
          ),
          outputs,
        ]),
      );
    }
    if (initializers.length > 0) space.initializer = choice('initializer', initializers);
    if (layerTypes.length > 0) space.layer_type = choice('layer_type', layerTypes);
  }
  return space;
}

/**
 * The search space of a scan runcard, as n3fit 4.1.5's `HyperScanner` builds it: the runcard's
 * whole `parameters` with a sampler in place of each setting `hyperscan_config` scans, labelled
 * as upstream labels them — `epochs` (integers from `min_epochs` to `max_epochs`),
 * `stopping_patience` (5 steps from `min_patience` to `max_patience`), `optimizer` (a choice of
 * the listed optimisers, each with `<name>_learning_rate` and `<name>_clipnorm` uniform or
 * log-uniform, or fixed), `multiplier` (uniform) and `initial` (log-uniform) of the positivity,
 * `activation_per_layer` (one name for every hidden layer), `nodes_per_layer` (a choice of the
 * numbers of layers, each layer's units `nl<n>:-<i>/<n>` integers from `min_units` to
 * `max_units`, the output layer kept), `initializer` and `layer_type`. A point's evaluated space
 * is a trial's `misc.space_vals`.
 *
 * @throws RuncardError naming `hyperscan_config` when the runcard has none or it samples nothing
 */
export function scanSpace(runcard: Runcard, file?: string): Record<string, SpaceValue> {
  const config = runcard.hyperscan_config;
  const problem =
    config === undefined
      ? 'a scan needs a search space: add hyperscan_config (stopping, optimizer, positivity, architecture)'
      : undefined;
  const sampled = config === undefined ? {} : samplers(config, runcard.parameters);
  // the settings as plain data: unset optional settings (undefined) are left out
  const settings = JSON.parse(JSON.stringify(runcard.parameters)) as Record<string, SpaceValue>;
  const space = { ...settings, ...sampled };
  const empty =
    problem ??
    (spaceLabels(space).length === 0
      ? 'the search space is empty: give ranges (min/max) or lists with at least one entry to scan'
      : undefined);
  if (empty !== undefined) {
    throw new RuncardError({ file, issues: [{ keyPath: 'hyperscan_config', problem: empty }] });
  }
  return space;
}
