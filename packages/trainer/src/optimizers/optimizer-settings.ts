import {
  InvalidArgumentError,
  oneOf,
  OPTIMIZER_LEARNING_RATES,
  type OptimizerName,
} from '@partonfit/core';

/**
 * What a {@link ReplicaOptimizer} is built from: the runcard's `parameters.optimizer`
 * (`optimizer_name`, `learning_rate`, `clipnorm`) plus the few Keras options n3fit never sets.
 * Every other hyperparameter is Keras 3's default (see the package README).
 */
export interface ReplicaOptimizerSettings {
  /** The optimiser, by its upstream (n3fit) name. */
  readonly name: OptimizerName;
  /** Step size; omitted means n3fit's default for `name` (`OPTIMIZER_LEARNING_RATES`). */
  readonly learningRate?: number;
  /**
   * Each replica's slice of each gradient is rescaled to at most this L2 norm (Keras's
   * per-variable `clipnorm`, taken per replica); `undefined` turns clipping off. n3fit's
   * runcards default to 1.0.
   */
  readonly clipnorm: number | undefined;
  /** SGD and RMSprop only: the momentum coefficient in [0, 1]; default 0 (Keras). */
  readonly momentum?: number;
  /** SGD only: Nesterov momentum; default false (Keras). */
  readonly nesterov?: boolean;
  /** RMSprop only: divide by the centred second moment; default false (Keras). */
  readonly centered?: boolean;
}

/** {@link ReplicaOptimizerSettings} checked and with every default filled in. */
export interface ResolvedOptimizerSettings {
  readonly name: OptimizerName;
  readonly learningRate: number;
  readonly clipnorm: number | undefined;
  readonly momentum: number;
  readonly nesterov: boolean;
  readonly centered: boolean;
}

const OPTIMIZER_NAMES = Object.keys(OPTIMIZER_LEARNING_RATES) as readonly OptimizerName[];

function positiveFinite(argument: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected a positive finite number, got ${String(value)}`,
    });
  }
  return value;
}

function onlyFor(
  argument: 'momentum' | 'nesterov' | 'centered',
  value: unknown,
  name: OptimizerName,
  allowed: readonly OptimizerName[],
): void {
  if (value !== undefined && !allowed.includes(name)) {
    throw new InvalidArgumentError({
      argument: `settings.${argument}`,
      problem: `only ${allowed.join(' and ')} take this option, not ${name}`,
    });
  }
}

/**
 * Checks optimiser settings and fills in the defaults.
 *
 * @throws InvalidArgumentError for an unknown name, a learning rate or clipnorm that is not a
 *   positive finite number, a momentum outside [0, 1], or an option the optimiser does not take.
 */
export function resolveOptimizerSettings(
  settings: ReplicaOptimizerSettings,
): ResolvedOptimizerSettings {
  const name = oneOf(settings.name, OPTIMIZER_NAMES, 'settings.name');
  const learningRate = positiveFinite(
    'settings.learningRate',
    settings.learningRate ?? OPTIMIZER_LEARNING_RATES[name],
  );
  const clipnorm =
    settings.clipnorm === undefined
      ? undefined
      : positiveFinite('settings.clipnorm', settings.clipnorm);
  onlyFor('momentum', settings.momentum, name, ['SGD', 'RMSprop']);
  onlyFor('nesterov', settings.nesterov, name, ['SGD']);
  onlyFor('centered', settings.centered, name, ['RMSprop']);
  const momentum = settings.momentum ?? 0;
  if (typeof momentum !== 'number' || !(momentum >= 0 && momentum <= 1)) {
    throw new InvalidArgumentError({
      argument: 'settings.momentum',
      problem: `expected a number in [0, 1], got ${String(momentum)}`,
    });
  }
  return {
    name,
    learningRate,
    clipnorm,
    momentum,
    nesterov: settings.nesterov ?? false,
    centered: settings.centered ?? false,
  };
}
