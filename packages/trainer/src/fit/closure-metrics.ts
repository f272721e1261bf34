import type * as tf from '@tensorflow/tfjs-core';
import type { Chi2Structure } from '@partonfit/core';
import { chi2FromStructure, type FitInputs } from '@partonfit/fktables';
import type { FitQuality } from '@partonfit/fit-folder';
import type { FitObjective } from '../training/fit-objective.js';

function quadratic(structure: Chi2Structure, residuals: Float64Array): Float64Array {
  return chi2FromStructure(structure, residuals);
}

/**
 * The fit-level quality numbers from every replica's predictions `(replicas, data)`, and the
 * truth's predictions when the data are a closure test's.
 */
export function fitQuality(
  inputs: FitInputs,
  predictions: Float64Array,
  truth: Float64Array | undefined,
): FitQuality {
  const { ndata, centralData, experimental } = inputs;
  const replicas = predictions.length / ndata;
  const average = new Float64Array(ndata);
  for (let r = 0; r < replicas; r++) {
    for (let n = 0; n < ndata; n++) average[n] += predictions[r * ndata + n] / replicas;
  }
  const residuals = average.map((value, n) => centralData[n] - value);
  const averageChi2PerPoint = quadratic(experimental, residuals)[0] / ndata;
  const withoutTheory =
    inputs.experimentalWithoutTheory === undefined
      ? {}
      : {
          averageChi2PerPointWithoutTheory:
            quadratic(inputs.experimentalWithoutTheory, residuals)[0] / ndata,
        };
  const datasetChi2PerPoint = Object.fromEntries(
    inputs.datasets.map((dataset) => {
      const own = residuals.map((value, n) =>
        n >= dataset.offset && n < dataset.offset + dataset.ndata ? value : 0,
      );
      return [dataset.name, quadratic(experimental, own)[0] / dataset.ndata];
    }),
  );
  if (truth === undefined) {
    return {
      averageChi2PerPoint,
      datasetChi2PerPoint,
      biasVarianceRatio: undefined,
      ...withoutTheory,
    };
  }
  const bias = quadratic(
    experimental,
    average.map((value, n) => value - truth[n]),
  )[0];
  const spread = quadratic(
    experimental,
    predictions.map((value, i) => value - average[i % ndata]),
  ).reduce((sum, value) => sum + value, 0);
  return {
    averageChi2PerPoint,
    datasetChi2PerPoint,
    // One replica has no spread: no ratio.
    biasVarianceRatio: replicas > 1 ? bias / (spread / replicas) : undefined,
    ...withoutTheory,
  };
}

/** Every replica's predictions with the current weights, float64 `(replicas, data)`. */
export async function replicaPredictions(
  objective: FitObjective,
  pdf: tf.Tensor3D,
): Promise<Float64Array> {
  const predictions = objective.predictions(pdf);
  try {
    return Float64Array.from(await predictions.data());
  } finally {
    predictions.dispose();
  }
}
