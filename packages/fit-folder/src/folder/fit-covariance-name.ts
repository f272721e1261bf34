import type { Runcard } from '@partonfit/core';

/**
 * The covariance C of a fit's χ² — of the per-replica and replica-average χ² in its summary,
 * without a theory covariance S — in words, from its runcard: the t0 covariance (multiplicative
 * uncertainties taken relative to the predictions of `datacuts.t0pdfset`, not to the data) when
 * the runcard names a t0 set, the experimental covariance otherwise; divided by the dataset
 * weights when a dataset's `weight` is not 1.
 *
 * @returns e.g. `t0 covariance (t0pdfset NNPDF40_nnlo_as_01180)`, `experimental covariance`,
 *   `experimental covariance with the dataset weights`
 */
export function fitCovarianceName(runcard: Pick<Runcard, 'datacuts' | 'dataset_inputs'>): string {
  const t0 = runcard.datacuts.t0pdfset;
  const kind = t0 === undefined ? 'experimental covariance' : `t0 covariance (t0pdfset ${t0})`;
  const weighted = runcard.dataset_inputs.some((input) => input.weight !== 1);
  return weighted ? `${kind} with the dataset weights` : kind;
}
