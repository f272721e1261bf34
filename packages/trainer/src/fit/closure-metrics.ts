import type * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type Chi2Structure } from '@partonfit/core';
import { chi2FromStructure, type FitDataset, type FitInputs } from '@partonfit/fktables';
import type { FitQuality } from '@partonfit/fit-folder';
import type { FitObjective } from '../training/fit-objective.js';

function quadratic(structure: Chi2Structure, residuals: Float64Array): Float64Array {
  return chi2FromStructure(structure, residuals);
}

/**
 * The fit-level quality numbers from every replica's predictions `(replicas, data)`, and the
 * truth's predictions when the data are a closure test's: χ² of the replica average with the
 * fit's covariance (`experimental`, and `experimentalWithoutTheory` without S), each dataset's
 * with its own block of it (`experimentalByDataset`), and the closure bias over variance.
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
  const byDataset = inputs.experimentalByDataset;
  const blockAt = new Map(byDataset.blocks.map((block) => [block.offset, block]));
  const datasetChi2 = (dataset: FitDataset): number => {
    // A dataset the cuts emptied has no χ²: 0 / 0 gives NaN (null in summary.json).
    if (dataset.ndata === 0) return 0;
    const block = blockAt.get(dataset.offset);
    if (block?.size !== dataset.ndata) {
      throw new InvalidArgumentError({
        argument: 'inputs.experimentalByDataset',
        problem: `no block of ${dataset.ndata} points at point ${dataset.offset} for ${dataset.name}`,
      });
    }
    return quadratic({ ...byDataset, blocks: [block] }, residuals)[0];
  };
  const datasetChi2PerPoint = Object.fromEntries(
    inputs.datasets.map((dataset) => [dataset.name, datasetChi2(dataset) / dataset.ndata]),
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
