/**
 * The names runcards choose settings from: optimisers, activations, initialisers. Shared by the
 * fit's `parameters` and the scan's `hyperscan_config`.
 */

/** Optimisers by upstream name, with n3fit's default learning rates. */
export const OPTIMIZER_LEARNING_RATES = {
  SGD: 0.01,
  RMSprop: 0.01,
  Adam: 0.01,
  Adamax: 0.001,
  Adagrad: 0.001,
  Adadelta: 1.0,
  Nadam: 0.001,
  Amsgrad: 0.01,
} as const;

/** The name of an optimiser. */
export type OptimizerName = keyof typeof OPTIMIZER_LEARNING_RATES;

export const OPTIMIZER_NAMES = Object.keys(OPTIMIZER_LEARNING_RATES) as [
  OptimizerName,
  ...OptimizerName[],
];

/** Activation functions a layer may use: tfjs built-ins and upstream's custom ones. */
export const ACTIVATIONS = [
  'linear',
  'tanh',
  'sigmoid',
  'relu',
  'elu',
  'softplus',
  'square',
  'leaky_relu',
  'modified_tanh',
] as const;

/** Weight initialisers n3fit accepts. */
export const INITIALIZERS = ['glorot_normal', 'glorot_uniform', 'random_uniform'] as const;
