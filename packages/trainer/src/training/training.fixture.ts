import { loadRuncard, type Runcard } from '@partonfit/core';
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
