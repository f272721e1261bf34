import { isMapping } from '@partonfit/core';

/** A hyperparameter of a trial: a number, a name, or null where it does not apply. */
export type SettingValue = number | string | null;

/** How a figure draws a hyperparameter on its x axis. */
export type SettingScale = 'nominal' | 'ordinal' | 'linear' | 'log';

/** A hyperparameter the scan report knows, named as vp-hyperoptplot names it. */
export interface ScanSetting {
  /** The column name: `number_of_layers`, `layer_1`, `learning_rate`, … */
  readonly name: string;
  /** The axis title and table column. */
  readonly title: string;
  readonly scale: SettingScale;
}

/** A trial's hyperparameters by {@link ScanSetting} name. */
export type TrialSettings = Readonly<Record<string, SettingValue>>;

/** The settings before and after the layers' units, in the order the report shows them. */
const HEAD: readonly ScanSetting[] = [
  { name: 'number_of_layers', title: 'number of layers', scale: 'ordinal' },
];
const TAIL: readonly ScanSetting[] = [
  { name: 'activation_per_layer', title: 'activation', scale: 'nominal' },
  { name: 'optimizer', title: 'optimizer', scale: 'nominal' },
  { name: 'learning_rate', title: 'learning rate', scale: 'log' },
  { name: 'clipnorm', title: 'clipnorm', scale: 'log' },
  { name: 'epochs', title: 'epochs', scale: 'linear' },
  { name: 'stopping_patience', title: 'stopping patience', scale: 'linear' },
  { name: 'initializer', title: 'initializer', scale: 'nominal' },
  { name: 'layer_type', title: 'layer type', scale: 'nominal' },
  { name: 'dropout', title: 'dropout', scale: 'linear' },
  { name: 'initial', title: 'positivity initial', scale: 'log' },
  { name: 'multiplier', title: 'positivity multiplier', scale: 'linear' },
];

/** A number as `tries.json` writes it: a number, or a numpy number as a string (`"0.5"`). */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  }
  return null;
}

function nameOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/**
 * The activation of the hidden layers: n3fit's scans write one name (`tanh`); a list
 * (`[tanh, tanh, linear]`) gives its hidden layers' names, joined when they differ.
 */
function activationOf(value: unknown): string | null {
  if (!Array.isArray(value)) return nameOf(value);
  const hidden = value.slice(0, Math.max(value.length - 1, 1)).map(nameOf);
  const names = [...new Set(hidden.filter((name) => name !== null))];
  return names.length === 0 ? null : names.join('-');
}

/**
 * A trial's hyperparameters from its evaluated space (`misc.space_vals`, the trial's whole
 * `parameters`), as vp-hyperoptplot reads them: `number_of_layers` (the hidden layers, the
 * output layer not counted), `layer_1`, `layer_2`, … (each hidden layer's units), the
 * activation, the optimiser's name, learning rate and clipnorm, epochs, stopping patience,
 * initializer, layer type, dropout and the positivity's `initial` and `multiplier`. A setting the
 * trial does not have is null.
 */
export function trialSettings(parameters: Readonly<Record<string, unknown>>): TrialSettings {
  const settings: Record<string, SettingValue> = {};
  const nodes = Array.isArray(parameters.nodes_per_layer) ? parameters.nodes_per_layer : [];
  const hidden = nodes.slice(0, -1);
  settings.number_of_layers = nodes.length === 0 ? null : hidden.length;
  hidden.forEach((units, i) => {
    settings[`layer_${i + 1}`] = numberOf(units);
  });
  settings.activation_per_layer = activationOf(parameters.activation_per_layer);
  const optimizer = parameters.optimizer;
  if (isMapping(optimizer)) {
    settings.optimizer = nameOf(optimizer.optimizer_name);
    settings.learning_rate = numberOf(optimizer.learning_rate);
    settings.clipnorm = numberOf(optimizer.clipnorm);
  } else {
    settings.optimizer = nameOf(optimizer);
  }
  settings.epochs = numberOf(parameters.epochs);
  settings.stopping_patience = numberOf(parameters.stopping_patience);
  settings.initializer = nameOf(parameters.initializer);
  settings.layer_type = nameOf(parameters.layer_type);
  settings.dropout = numberOf(parameters.dropout);
  const positivity = isMapping(parameters.positivity) ? parameters.positivity : {};
  settings.initial = numberOf(positivity.initial);
  settings.multiplier = numberOf(positivity.multiplier);
  return settings;
}

/** Every setting the trials have a value for, in the report's order (`layer_<i>` after the count). */
export function scanSettings(trials: readonly TrialSettings[]): ScanSetting[] {
  const layers = Math.max(
    0,
    ...trials.map(
      (settings) => Object.keys(settings).filter((key) => /^layer_\d+$/.test(key)).length,
    ),
  );
  const units = Array.from({ length: layers }, (_, i) => ({
    name: `layer_${i + 1}`,
    title: `units of layer ${i + 1}`,
    scale: 'linear' as const,
  }));
  return [...HEAD, ...units, ...TAIL].filter((setting) =>
    trials.some((settings) => (settings[setting.name] ?? null) !== null),
  );
}

function distinct(trials: readonly TrialSettings[], name: string): Set<string> {
  return new Set(
    trials
      .map((settings) => settings[name] ?? null)
      .filter((value) => value !== null)
      .map((value) => `${typeof value}:${String(value)}`),
  );
}

/**
 * The settings the scan varied: those with more than one value among the trials that have one
 * (a `layer_2` that two-layer trials sample varies; one every trial lacks does not show).
 */
export function varyingSettings(trials: readonly TrialSettings[]): ScanSetting[] {
  return scanSettings(trials).filter((setting) => distinct(trials, setting.name).size > 1);
}

/** The settings every trial has, with the one value they share. */
export function sharedSettings(
  trials: readonly TrialSettings[],
): { readonly setting: ScanSetting; readonly value: number | string }[] {
  return scanSettings(trials).flatMap((setting) => {
    const values = trials.map((settings) => settings[setting.name] ?? null);
    const first = values.at(0) ?? null;
    if (first === null) return [];
    return values.every((value) => value === first) ? [{ setting, value: first }] : [];
  });
}
