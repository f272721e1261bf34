import { chi2, covarianceMatrix, predictObservable, type PdfAtXGrid } from '@partonfit/fktables';
import type { DatasetComparison } from './dataset-predictions.js';

/** A closure test's bias and variance on one dataset, in data space. */
export interface DatasetBiasVariance {
  readonly dataset: string;
  readonly ndata: number;
  /** (T̄ − T_true)ᵀ C⁻¹ (T̄ − T_true), T̄ the replicas' mean prediction. */
  readonly bias: number;
  /** The mean over replicas of (T_r − T̄)ᵀ C⁻¹ (T_r − T̄). */
  readonly variance: number;
}

/**
 * NNPDF4.0's closure estimators per dataset, with each dataset's experimental covariance C: the
 * bias of the replicas' mean prediction from the truth's and the replicas' variance around it.
 * Their ratio is near 1 for a faithful uncertainty. Datasets predicted by fewer than two
 * replicas are left out.
 *
 * @param comparisons - a fit's predictions for each dataset (`compareWithData`)
 * @param truth - x·f `(x, 14)` in the evolution basis of the PDF that made the data, at the FK
 *   tables' Q0
 */
export function closureBiasVariance(
  comparisons: readonly DatasetComparison[],
  truth: PdfAtXGrid,
): DatasetBiasVariance[] {
  return comparisons
    .filter((comparison) => comparison.replicas.length >= 2)
    .map(({ dataset, predictions, replicas }) => {
      const covariance = covarianceMatrix([dataset.commonData]);
      const truthPredictions = predictObservable(dataset.observable, truth);
      const spread = replicas.reduce(
        (sum, replica) => sum + chi2(replica, predictions, covariance),
        0,
      );
      return {
        dataset: dataset.name,
        ndata: predictions.length,
        bias: chi2(predictions, truthPredictions, covariance),
        variance: spread / replicas.length,
      };
    });
}
