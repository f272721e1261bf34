import { TRIAL_STATES, type HyperscanTrial, type HyperscanTries } from './tries-file.js';
import { isMapping } from '../validate/is-mapping.js';

/**
 * The settings n3fit 4.1.5 takes from each trial (the columns of validphys's
 * `generate_dictionary`), which `trial_specs.override` may force for every replica.
 */
export const TRIAL_COLUMNS = [
  'optimizer',
  'learning_rate',
  'clipnorm',
  'epochs',
  'stopping_patience',
  'initial',
  'multiplier',
  'nodes_per_layer',
  'activation_per_layer',
  'initializer',
  'layer_type',
  'dropout',
] as const;

/** One of {@link TRIAL_COLUMNS}. */
export type TrialColumn = (typeof TRIAL_COLUMNS)[number];

/** A trial kept by `trial_specs`, with its rank among the kept ones (0 = lowest loss). */
export interface RankedTrial {
  readonly trial: HyperscanTrial;
  readonly rank: number;
}

/** How many trials `trial_specs` skips and keeps. */
export interface TrialCounts {
  readonly thermalization: number;
  readonly number_of_trials: number;
}

/**
 * The trials `trial_specs` keeps, best first, as n3fit 4.1.5 chooses them: the finished trials
 * (state `DONE`) in the file's order, the first `thermalization` of them skipped, the rest sorted
 * by loss (a NaN loss last; ties keep the file's order) and the first `number_of_trials` kept.
 * Trials with status `fail` count, ranked by their penalised loss, as upstream ranks them.
 *
 * @returns the kept trials, or the problem when the scan has too few finished trials
 */
export function selectTrials(
  tries: HyperscanTries,
  counts: TrialCounts,
): { trials: RankedTrial[] } | { problem: string } {
  const finished = tries.trials.filter((trial) => trial.state === TRIAL_STATES.done);
  const needed = counts.thermalization + counts.number_of_trials;
  if (finished.length < needed) {
    return {
      problem: `${tries.file} has ${finished.length} finished trial(s) of ${tries.trials.length}; thermalization ${counts.thermalization} + number_of_trials ${counts.number_of_trials} needs ${needed}`,
    };
  }
  const sortKey = (trial: HyperscanTrial) =>
    Number.isNaN(trial.loss) ? Number.POSITIVE_INFINITY : trial.loss;
  const ranked = finished
    .slice(counts.thermalization)
    .map((trial, order) => ({ trial, order }))
    .sort(
      (a, b) =>
        sortKey(a.trial) - sortKey(b.trial) ||
        Number(Number.isNaN(a.trial.loss)) - Number(Number.isNaN(b.trial.loss)) ||
        a.order - b.order,
    );
  return {
    trials: ranked.slice(0, counts.number_of_trials).map(({ trial }, rank) => ({ trial, rank })),
  };
}

/** Whether a trial holds a value for a setting (n3fit writes `null` for settings not sampled). */
function isSet(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/**
 * A trial's settings as n3fit 4.1.5's columns: the optimiser's name, learning rate and clipnorm,
 * the positivity `initial` and `multiplier` (when the scan sampled them), and the network and
 * stopping settings.
 */
export function trialColumns(trial: HyperscanTrial): Partial<Record<TrialColumn, unknown>> {
  const { optimizer, positivity, ...rest } = trial.parameters;
  const columns: Partial<Record<TrialColumn, unknown>> = {};
  if (isMapping(optimizer)) {
    columns.optimizer = optimizer.optimizer_name;
    if (isSet(optimizer.learning_rate)) columns.learning_rate = optimizer.learning_rate;
    if (isSet(optimizer.clipnorm)) columns.clipnorm = optimizer.clipnorm;
  } else if (isSet(optimizer)) {
    columns.optimizer = optimizer;
  }
  if (isMapping(positivity)) {
    if (isSet(positivity.initial)) columns.initial = positivity.initial;
    if (isSet(positivity.multiplier)) columns.multiplier = positivity.multiplier;
  }
  for (const column of [
    'epochs',
    'stopping_patience',
    'nodes_per_layer',
    'activation_per_layer',
    'initializer',
    'layer_type',
    'dropout',
  ] as const) {
    if (isSet(rest[column])) columns[column] = rest[column];
  }
  return columns;
}

/**
 * Trial columns as settings of a runcard's `parameters` section: the optimiser's columns under
 * `optimizer`, `initial` and `multiplier` under `positivity`, `epochs` truncated to an integer
 * (as n3fit's `int(epochs)`, since the scan samples it as a float), and an activation given as
 * one name (how n3fit samples it) expanded to every hidden layer with a linear output layer.
 */
export function columnsAsParameters(
  columns: Partial<Record<TrialColumn, unknown>>,
): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  const optimizer: Record<string, unknown> = {};
  const positivity: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(columns) as [TrialColumn, unknown][]) {
    switch (column) {
      case 'optimizer':
        optimizer.optimizer_name = value;
        break;
      case 'learning_rate':
      case 'clipnorm':
        optimizer[column] = value;
        break;
      case 'initial':
      case 'multiplier':
        positivity[column] = value;
        break;
      case 'epochs':
        parameters.epochs = typeof value === 'number' ? Math.trunc(value) : value;
        break;
      default:
        parameters[column] = value;
    }
  }
  const nodes = parameters.nodes_per_layer;
  const activation = parameters.activation_per_layer;
  if (typeof activation === 'string' && Array.isArray(nodes) && nodes.length > 0) {
    parameters.activation_per_layer = [
      ...Array.from({ length: nodes.length - 1 }, () => activation),
      'linear',
    ];
  }
  if (Object.keys(optimizer).length > 0) parameters.optimizer = optimizer;
  if (Object.keys(positivity).length > 0) parameters.positivity = positivity;
  return parameters;
}
