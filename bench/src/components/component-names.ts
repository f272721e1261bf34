/** The parts of a training step timed in isolation, in the order of the step. */
export const COMPONENT_NAMES = [
  'network',
  'preprocessing',
  'sumRules',
  'dis',
  'hadronic',
  'lagrange',
  'losses',
  'optimiser',
  'stopping',
] as const;

/** One of {@link COMPONENT_NAMES}. */
export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** What each component's timing covers. */
export const COMPONENT_DESCRIPTIONS: Readonly<Record<ComponentName, string>> = {
  network: 'PDF network: MultiDense 2→25→20→8 on the x-grid + integration grid, forward + backward',
  preprocessing:
    'preprocessing x^(1−α)(1−x)^β times the network and rotation to the evolution basis, forward + backward',
  sumRules: 'sum-rule integrals and normalisation, forward + backward',
  dis: 'DIS observables (all DIS FK tables), forward + backward to the PDF',
  hadronic: 'hadronic observables (all hadronic FK tables), forward + backward to the PDF',
  lagrange: 'positivity and integrability observables and penalties, forward + backward',
  losses: 'training and validation χ² from the predictions, forward + backward',
  optimiser: 'per-replica optimiser update (clipping, Nadam) and preprocessing clipping',
  stopping: 'on-device early-stopping update (best losses, patience, best weights)',
};
