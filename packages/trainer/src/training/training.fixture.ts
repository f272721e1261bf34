import { loadRuncard, type FitParameters, type Runcard } from '@partonfit/core';
import type { TrainingResult } from './train-replicas.js';
import { prepareFitInputs, type FitInputs } from '@partonfit/fktables';
import { CLOSURE_RUNCARD } from '@partonfit/testing';

/** Overrides of the closure runcard for a small, fast test fit. */
export interface SmallFitOptions {
  readonly datasets?: readonly string[];
  readonly epochs: number;
  readonly optimizer?: Runcard['parameters']['optimizer'];
  /** Level 0: exact toy-PDF data, no replica fluctuations. */
  readonly level0?: boolean;
}

/** The closure runcard restricted and shortened for a test. */
export async function smallClosureRuncard(options: SmallFitOptions): Promise<Runcard> {
  const { runcard } = await loadRuncard(CLOSURE_RUNCARD);
  const datasets = options.datasets;
  return {
    ...runcard,
    dataset_inputs: runcard.dataset_inputs.filter(
      (input) => datasets === undefined || datasets.includes(input.dataset),
    ),
    parameters: {
      ...runcard.parameters,
      epochs: options.epochs,
      ...(options.optimizer === undefined ? {} : { optimizer: options.optimizer }),
    },
    ...(options.level0 === true
      ? {
          genrep: false,
          closuretest: { fakedata: true, fakepdf: 'toyLH', fakenoise: false, filterseed: 0 },
        }
      : {}),
  };
}

/** The fit inputs of a runcard derived from the closure runcard, without a cache. */
export async function closureInputs(
  runcard: Runcard,
  replicas: readonly number[],
): Promise<FitInputs> {
  return (
    await prepareFitInputs(runcard, { runcardFile: CLOSURE_RUNCARD, replicas, cacheFolder: null })
  ).inputs;
}

/** Frees what a training result holds (its model and objective). */
export function disposeResult(result: TrainingResult): void {
  result.objective.dispose();
  result.model.dispose();
}

/** max |a − b| / max(|b|, floor) over the elements. */
export function worstRelativeDifference(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  floor: number,
): number {
  let worst = 0;
  for (let i = 0; i < b.length; i++) {
    worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(floor, Math.abs(b[i])));
  }
  return worst;
}

/**
 * Four replicas, each its own methodology: the base network and Nadam; a narrower network in the
 * same group with another learning rate and patience; sigmoid activations and fewer epochs; a
 * two-layer network under Adam with another clipnorm and positivity schedule.
 */
export function heterogeneousRuncard(base: Runcard): Runcard {
  // every epoch may be a best one (threshold and positivity met), so patience decides the stops
  const parameters: FitParameters = {
    ...base.parameters,
    threshold_chi2: 1000,
    stopping_patience: 0.05,
    positivity: { ...base.parameters.positivity, threshold: 1e6 },
  };
  const entry = (settings: Partial<FitParameters>): FitParameters => ({
    ...parameters,
    ...settings,
  });
  return {
    ...base,
    parameters,
    parameters_per_replica: [
      entry({}),
      entry({
        nodes_per_layer: [15, 10, 8],
        optimizer: { ...parameters.optimizer, learning_rate: 4e-3 },
        stopping_patience: 0.01,
      }),
      entry({ activation_per_layer: ['sigmoid', 'sigmoid', 'linear'], epochs: 130 }),
      entry({
        nodes_per_layer: [30, 8],
        activation_per_layer: ['tanh', 'linear'],
        initializer: 'glorot_uniform',
        optimizer: { optimizer_name: 'Adam', learning_rate: 5e-3, clipnorm: 2e-3 },
        positivity: { ...parameters.positivity, initial: 2, multiplier: 1.5 },
      }),
    ],
  };
}

/** {@link heterogeneousRuncard} of four closure datasets, 200 epochs under Nadam by default. */
export async function heterogeneousClosureRuncard(): Promise<Runcard> {
  return heterogeneousRuncard(
    await smallClosureRuncard({
      datasets: ['CLOSURE_F2P', 'CLOSURE_F2D', 'CLOSURE_NU_XF3', 'CLOSURE_XG'],
      epochs: 200,
      optimizer: { optimizer_name: 'Nadam', learning_rate: 0.01, clipnorm: 1e-3 },
    }),
  );
}
