import { cholesky, InputFileError, LinearAlgebraError } from '@partonfit/core';
import type { Bundle } from '../bundle/bundle.js';
import type { CommonData, Uncertainty } from '../commondata/commondata.js';

/**
 * A bundle's data as commondata, so bundles and commondata sets share one covariance, one
 * pseudodata draw and one split: the bundle's covariance C = L·Lᵀ becomes the ndata correlated
 * additive uncertainties given by the columns of its Cholesky factor L (intra-dataset, so a
 * bundle is an independent block). The process type `BUNDLE` keeps kinematic cuts away: a
 * bundle's points are already the ones to fit.
 *
 * @param nnpdf31Process - the process of the bundle's data, for theory covariances
 * @throws InputFileError - naming the bundle if its covariance is not positive definite
 */
export function bundleAsCommonData(bundle: Bundle, nnpdf31Process?: string): CommonData {
  const n = bundle.data.length;
  let factor;
  try {
    factor = cholesky(bundle.covariance);
  } catch (error) {
    if (!LinearAlgebraError.isInstance(error)) throw error;
    throw new InputFileError({
      file: bundle.file,
      key: 'covmat',
      problem: error.message,
      cause: error,
    });
  }
  const uncertainties: Uncertainty[] = Array.from({ length: n }, (_, k) => ({
    name: `covmat_${k}`,
    treatment: 'ADD',
    type: 'CORR',
    values: Float64Array.from({ length: n }, (_, i) => factor.data[i * n + k]),
  }));
  return {
    name: bundle.name,
    setName: bundle.name,
    observableName: undefined,
    variant: undefined,
    legacyName: undefined,
    processType: 'BUNDLE',
    kind: 'data',
    experiment: undefined,
    nnpdf31Process,
    ndata: n,
    central: bundle.data,
    kinematics: { variables: ['k1', 'k2', 'k3'], values: new Float64Array(3 * n) },
    uncertainties,
    theory: undefined,
    positivityRequired: false,
    pointIndices: Uint32Array.from({ length: n }, (_, i) => i),
    files: [bundle.file],
  };
}
