import { parseRuncard, type Runcard } from '@partonfit/core';
import type { WorkloadSpec } from './workload-spec.js';

/** NNPDF4.0's preprocessing ranges of the 8 fitted evolution-basis flavours. */
const NNPDF40_BASIS = [
  { fl: 'sng', trainable: false, smallx: [1.094, 1.118], largex: [1.46, 3.003] },
  { fl: 'g', trainable: false, smallx: [0.8189, 1.044], largex: [2.791, 5.697] },
  { fl: 'v', trainable: false, smallx: [0.457, 0.7326], largex: [1.56, 3.431] },
  { fl: 'v3', trainable: false, smallx: [0.1462, 0.4061], largex: [1.745, 3.452] },
  { fl: 'v8', trainable: false, smallx: [0.5401, 0.7665], largex: [1.539, 3.393] },
  { fl: 't3', trainable: false, smallx: [-0.4401, 0.9163], largex: [1.773, 3.333] },
  { fl: 't8', trainable: false, smallx: [0.5852, 0.8537], largex: [1.533, 3.436] },
  { fl: 't15', trainable: false, smallx: [1.082, 1.142], largex: [1.461, 3.1] },
];

/** NNPDF4.0's number of epochs, the default of {@link benchRuncard}. */
export const NNPDF40_EPOCHS = 17_000;

/**
 * The runcard document of a benchmark workload, before validation: NNPDF4.0's fit settings
 * (network 25-20-8 tanh/tanh/linear, glorot_normal, Nadam with NNPDF4.0's learning rate and
 * clipnorm, patience 0.1, EVOL basis, Lagrange multipliers), the workload's datasets and
 * positivity/integrability sets by name, and the project's default split in the diagonal basis
 * (`diagonal_frac` 0.75).
 *
 * @param epochs - `parameters.epochs` (the Lagrange schedules and the patience depend on it)
 */
export function benchRuncardCard(spec: WorkloadSpec, epochs = NNPDF40_EPOCHS) {
  return {
    description: `partonfit benchmark workload ${spec.name}: ${spec.description}`,
    dataset_inputs: spec.datasets.map((dataset) => ({ dataset: dataset.name, frac: 0.75 })),
    positivity: {
      posdatasets: spec.positivity.map((set) => ({ dataset: set.name, maxlambda: set.maxLambda })),
    },
    integrability: {
      integdatasets: spec.integrability.map((set) => ({
        dataset: set.name,
        maxlambda: set.maxLambda,
      })),
    },
    trvlseed: 3,
    nnseed: 2,
    mcseed: 1,
    genrep: true,
    diagonal_basis: true,
    diagonal_frac: 0.75,
    parameters: {
      nodes_per_layer: [25, 20, 8],
      activation_per_layer: ['tanh', 'tanh', 'linear'],
      initializer: 'glorot_normal',
      optimizer: { optimizer_name: 'Nadam', learning_rate: 2.621e-3, clipnorm: 6.073e-6 },
      epochs,
      stopping_patience: 0.1,
      threshold_chi2: 3.5,
      positivity: { initial: 184.8 },
      integrability: { initial: 10 },
    },
    fitting: { fitbasis: 'EVOL', basis: NNPDF40_BASIS },
  };
}

/**
 * The runcard of a benchmark workload ({@link benchRuncardCard}), validated.
 *
 * @param epochs - `parameters.epochs` (the Lagrange schedules and the patience depend on it)
 */
export function benchRuncard(spec: WorkloadSpec, epochs = NNPDF40_EPOCHS): Runcard {
  // A JSON document is a YAML 1.2 document: the runcard goes through the same validation as a file.
  return parseRuncard(JSON.stringify(benchRuncardCard(spec, epochs))).runcard;
}
