import { join } from 'node:path';
import { InputFileError, RuncardError, type Runcard } from '@partonfit/core';
import {
  chi2,
  covarianceMatrix,
  inputPaths,
  lhapdfMemberPredictions,
  resolveDataset,
  type ResolvedDataset,
} from '@partonfit/fktables';
import { loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { isFitFolder, loadFitReplicas, predictFitReplicasForObservables } from '@partonfit/trainer';

/** A PDF's predictions for one dataset. */
export interface DatasetPredictions {
  /**
   * Member 0's predictions `(data)`: an LHAPDF set's central member at the tables' Q0, a fit's
   * mean over its replicas' predictions.
   */
  readonly predictions: Float64Array;
  /** For a fit, each replica's predictions, each `(data)`; none for an LHAPDF set. */
  readonly replicas: readonly Float64Array[];
}

/** A PDF whose predictions a report compares with the data: a fit folder or an LHAPDF set. */
export interface PredictingPdf {
  readonly label: string;
  /** The predictions for each dataset, in order. */
  readonly predict: (datasets: readonly ResolvedDataset[]) => Promise<DatasetPredictions[]>;
}

/**
 * A fit folder or an LHAPDF set as `partonfit predict` evaluates it for `--member 0`: a fit's
 * replicas rebuilt from their `weights.h5` (postfit's when present) and evaluated exactly on each
 * FK table's x grid, the mean of their predictions; an LHAPDF set's member 0 interpolated at the
 * tables' Q0. A fit needs an initialised TensorFlow.js backend.
 *
 * @throws InputFileError or RuncardError for a folder that is neither, or damaged files
 */
export async function predictingPdf(path: string): Promise<PredictingPdf> {
  if (await isFitFolder(path)) {
    const set = await loadFitReplicas(path);
    return {
      label: set.fit,
      predict: async (datasets) => {
        const observables = datasets.map((dataset) => dataset.observable);
        const found = await predictFitReplicasForObservables(set, observables, 0);
        return found.map(({ predictions, members }) => ({
          predictions,
          replicas: members.map((member) => member.predictions),
        }));
      },
    };
  }
  const set = await loadLhapdfSet(path);
  const central = await loadLhapdfMember(set, 0);
  return {
    label: set.name,
    predict: (datasets) =>
      Promise.resolve(
        datasets.map(({ observable }) => ({
          predictions: lhapdfMemberPredictions(central, observable).predictions,
          replicas: [],
        })),
      ),
  };
}

/** The datasets of a runcard with data (not positivity), resolved as `partonfit predict` does. */
export interface RuncardDatasets {
  readonly datasets: readonly ResolvedDataset[];
  /** The datasets that could not be resolved, with the reason. */
  readonly problems: readonly string[];
}

/**
 * Resolves every `dataset_inputs` entry of a fit's runcard with its paths and cuts, exactly as
 * `partonfit predict --dataset <entry> --runcard <fit>/runcard.yml` does: the commondata's own
 * data (for an embedded closure dataset its level-0 data, not the fit's fluctuated pseudodata).
 */
export async function runcardDatasets(
  runcard: Runcard,
  fitFolder: string,
): Promise<RuncardDatasets> {
  const paths = inputPaths(runcard, join(fitFolder, 'runcard.yml'));
  const cuts = { q2min: runcard.datacuts.q2min, w2min: runcard.datacuts.w2min };
  const datasets: ResolvedDataset[] = [];
  const problems: string[] = [];
  for (const input of runcard.dataset_inputs) {
    try {
      const dataset = await resolveDataset(input, paths, cuts);
      if (dataset.commonData.kind === 'data') datasets.push(dataset);
    } catch (error) {
      if (!InputFileError.isInstance(error) && !RuncardError.isInstance(error)) throw error;
      problems.push(`${input.dataset}: ${error.message}`);
    }
  }
  return { datasets, problems };
}

/** One dataset's χ² for one PDF. */
export interface DatasetChi2 {
  readonly dataset: string;
  readonly set: string;
  readonly ndata: number;
  /** (D − T)ᵀ C⁻¹ (D − T) with the experimental covariance and member 0's predictions. */
  readonly chi2: number;
  readonly chi2PerPoint: number;
}

/** A dataset's data and a PDF's predictions for it, point by point. */
export interface DatasetComparison {
  readonly dataset: ResolvedDataset;
  readonly set: string;
  readonly predictions: Float64Array;
  readonly replicas: readonly Float64Array[];
  readonly chi2: DatasetChi2;
}

/**
 * The predictions of `pdf` for each dataset and their χ² against the data with the experimental
 * covariance: the numbers `partonfit predict` prints for the same PDF and dataset.
 */
export async function compareWithData(
  pdf: PredictingPdf,
  datasets: readonly ResolvedDataset[],
): Promise<DatasetComparison[]> {
  const found = await pdf.predict(datasets);
  return datasets.map((dataset, d) => {
    const { predictions, replicas } = found[d];
    const { commonData } = dataset;
    const value = chi2(commonData.central, predictions, covarianceMatrix([commonData]));
    return {
      dataset,
      set: pdf.label,
      predictions,
      replicas,
      chi2: {
        dataset: dataset.name,
        set: pdf.label,
        ndata: predictions.length,
        chi2: value,
        chi2PerPoint: value / predictions.length,
      },
    };
  });
}
