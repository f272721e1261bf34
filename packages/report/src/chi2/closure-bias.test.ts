import { join } from 'node:path';
import { loadRuncard } from '@partonfit/core';
import { chi2, covarianceMatrix, predictObservable, toyPdfXf } from '@partonfit/fktables';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { closureBiasVariance } from './closure-bias.js';
import { runcardDatasets, type DatasetComparison } from './dataset-predictions.js';

/** The first embedded closure dataset, with replicas truth ± `shift` around the mean truth + `offset`. */
async function comparison(shift: number, offset: number): Promise<DatasetComparison> {
  const { runcard } = await loadRuncard(CLOSURE_RUNCARD);
  const { datasets } = await runcardDatasets(runcard, join(CLOSURE_RUNCARD, '..'));
  const dataset = datasets[0];
  const truth = predictObservable(dataset.observable, toyPdfXf);
  const errors = Float64Array.from(truth, (_, n) =>
    Math.sqrt(covarianceMatrix([dataset.commonData]).data[n * truth.length + n]),
  );
  const around = (scale: number) => truth.map((value, n) => value + scale * errors[n]);
  return {
    dataset,
    set: 'toy',
    predictions: around(offset),
    replicas: [around(offset + shift), around(offset - shift)],
    chi2: { dataset: dataset.name, set: 'toy', ndata: truth.length, chi2: 0, chi2PerPoint: 0 },
  };
}

describe('closureBiasVariance', () => {
  it('should give no bias for replicas centred on the truth, and variance growing as shift²', async () => {
    const [narrow] = closureBiasVariance([await comparison(1, 0)], toyPdfXf);
    const [wide] = closureBiasVariance([await comparison(2, 0)], toyPdfXf);
    expect(narrow.dataset).toBe('CLOSURE_F2P');
    expect(narrow.bias).toBe(0);
    expect(narrow.variance).toBeGreaterThan(0);
    expect(wide.variance / narrow.variance).toBeCloseTo(4, 10);
  });

  it('should measure the mean’s distance from the truth with the experimental covariance', async () => {
    const shifted = await comparison(1, 0.5);
    const [row] = closureBiasVariance([shifted], toyPdfXf);
    const truth = predictObservable(shifted.dataset.observable, toyPdfXf);
    const covariance = covarianceMatrix([shifted.dataset.commonData]);
    expect(row.bias).toBeCloseTo(chi2(shifted.predictions, truth, covariance), 10);
    // The replicas sit ± 1σ-diagonal steps from their mean, as in the unshifted case.
    const [centred] = closureBiasVariance([await comparison(1, 0)], toyPdfXf);
    expect(row.variance).toBeCloseTo(centred.variance, 8);
    expect(row.bias / row.variance).toBeCloseTo(0.25, 8);
  });
});
