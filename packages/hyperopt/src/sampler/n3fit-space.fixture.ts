import { choice, logUniform, quantizedUniform, type SpacePoint, type SpaceValue } from './space.js';

/** Layer widths as n3fit's `HyperScanner.architecture` samples them (min 10, max 45, 5 steps). */
function layerUnits(layers: number): SpaceValue[] {
  const units: SpaceValue[] = Array.from({ length: layers }, (_, i) =>
    quantizedUniform(`nl${layers}:-${i}/${layers}`, 10, 45, 7, { integer: true }),
  );
  return [...units, 8];
}

/**
 * A search space shaped like the one n3fit's `HyperScanner` builds from a runcard's `hyperscan`
 * section: an optimiser choice with per-optimiser learning rates (and a clipnorm for one), epochs
 * and stopping patience in 5 steps, a choice of 2 or 3 hidden layers whose widths are labelled
 * `nl<n>:-<i>/<n>` with the 8-unit output layer appended, activations, initialisers and the
 * positivity multiplier's initial value (log-uniform).
 */
export const N3FIT_SPACE = {
  optimizer: choice('optimizer', [
    {
      optimizer_name: 'Adam',
      learning_rate: logUniform('Adam_learning_rate', 1e-4, 1e-2),
      clipnorm: logUniform('Adam_clipnorm', 1e-7, 1e-4),
    },
    { optimizer_name: 'Nadam', learning_rate: logUniform('Nadam_learning_rate', 1e-4, 1e-2) },
  ]),
  epochs: quantizedUniform('epochs', 5000, 30000, 5000, { integer: true }),
  stopping_patience: quantizedUniform('stopping_patience', 0.1, 0.3, 0.04),
  nodes_per_layer: choice('nodes_per_layer', [layerUnits(2), layerUnits(3)]),
  activation_per_layer: choice('activation_per_layer', ['tanh', 'sigmoid']),
  initializer: choice('initializer', ['glorot_normal', 'glorot_uniform']),
  positivity: { initial: logUniform('pos_initial', 0.5, 100), threshold: 1e-6 },
} as const satisfies SpaceValue;

/** The labels active at a point of {@link N3FIT_SPACE}, sorted. */
export function n3fitActiveLabels(point: SpacePoint): string[] {
  const optimizerLabels =
    point['optimizer'] === 0 ? ['Adam_learning_rate', 'Adam_clipnorm'] : ['Nadam_learning_rate'];
  const layers = point['nodes_per_layer'] === 0 ? 2 : 3;
  const unitLabels = Array.from({ length: layers }, (_, i) => `nl${layers}:-${i}/${layers}`);
  return [
    'optimizer',
    ...optimizerLabels,
    'epochs',
    'stopping_patience',
    'nodes_per_layer',
    ...unitLabels,
    'activation_per_layer',
    'initializer',
    'pos_initial',
  ].sort();
}

/**
 * A made-up loss on {@link N3FIT_SPACE} with a known best region: Nadam, learning rate near 1e-3,
 * two layers of about 30 units, tanh.
 */
export function n3fitLoss(point: SpacePoint): number {
  const nadam = point['optimizer'] === 1;
  const rate = nadam ? point['Nadam_learning_rate'] : point['Adam_learning_rate'];
  const units = point['nodes_per_layer'] === 0 ? point['nl2:-0/2'] : point['nl3:-0/3'];
  return (
    (nadam ? 0 : 0.5) +
    (Math.log10(rate) + 3) ** 2 +
    ((units - 30) / 20) ** 2 +
    (point['nodes_per_layer'] === 0 ? 0 : 0.3) +
    (point['activation_per_layer'] === 0 ? 0 : 0.2)
  );
}
