import { createMatrix, InvalidArgumentError, ShapeError, type Matrix } from '@partonfit/core';
import type { CommonData, Uncertainty } from '../commondata/index.js';
import { datasetBlocks, datasetOffsets, specialKeys, type DatasetBlock } from './dataset-blocks.js';

/** Options of {@link covarianceMatrix} and {@link covarianceBlocks}. */
export interface CovarianceOptions {
  /**
   * For the t0 covariance: per dataset the predictions of the t0 PDF, shape `(data)` each. MULT
   * uncertainties then become σ_i = relative_i · t0_i instead of the absolute values of the file
   * (which are relative_i · D_i).
   */
  readonly t0Predictions?: readonly Float64Array[];
  /**
   * Per dataset a positive weight: C_ij is divided by √(w_i · w_j), so a dataset's own block is
   * divided by its weight (upstream `use_weights_in_covmat`). Default 1.
   */
  readonly weights?: readonly number[];
}

/** One independent block of the covariance, see {@link datasetBlocks}. */
export interface CovarianceBlock extends DatasetBlock {
  /** The block's covariance, (size, size), symmetric. */
  readonly covariance: Matrix;
}

function checkOptions(datasets: readonly CommonData[], options: CovarianceOptions): void {
  const { t0Predictions, weights } = options;
  if (t0Predictions !== undefined) {
    if (t0Predictions.length !== datasets.length) {
      throw new ShapeError({
        quantity: 't0Predictions',
        expected: [datasets.length],
        actual: [t0Predictions.length],
        axes: '(datasets)',
      });
    }
    datasets.forEach((dataset, d) => {
      const predictions = t0Predictions[d];
      if (predictions.length !== dataset.ndata) {
        throw new ShapeError({
          quantity: `t0Predictions of ${dataset.name}`,
          expected: [dataset.ndata],
          actual: [predictions.length],
          axes: '(data)',
        });
      }
      const bad = predictions.findIndex((value) => !Number.isFinite(value));
      if (bad >= 0) {
        throw new InvalidArgumentError({
          argument: 't0Predictions',
          problem: `point ${bad} of ${dataset.name} is ${predictions[bad]}`,
        });
      }
    });
  }
  if (weights !== undefined) {
    if (weights.length !== datasets.length) {
      throw new ShapeError({
        quantity: 'weights',
        expected: [datasets.length],
        actual: [weights.length],
        axes: '(datasets)',
      });
    }
    weights.forEach((weight, d) => {
      if (!(Number.isFinite(weight) && weight > 0)) {
        throw new InvalidArgumentError({
          argument: 'weights',
          problem: `the weight of ${datasets[d].name} must be a positive number, got ${weight}`,
        });
      }
    });
  }
}

/** The absolute uncertainty of each point: the file's values, or relative · t0 for MULT with t0. */
function absoluteValues(uncertainty: Uncertainty, t0: Float64Array | undefined): Float64Array {
  const { relative } = uncertainty;
  if (t0 === undefined || relative === undefined) return uncertainty.values;
  return relative.map((fraction, i) => fraction * t0[i]);
}

/** Adds v·vᵀ over the rows [first, end) to the upper triangle of the (n, n) `upper`. */
function addOuterProduct(
  upper: Float64Array,
  n: number,
  v: Float64Array,
  first: number,
  end: number,
): void {
  for (let i = first; i < end; i++) {
    const vi = v[i];
    if (vi === 0) continue;
    const row = i * n;
    for (let j = i; j < end; j++) upper[row + j] += vi * v[j];
  }
}

function blockCovariance(
  datasets: readonly CommonData[],
  block: DatasetBlock,
  offsets: readonly number[],
  options: CovarianceOptions,
): Matrix {
  const n = block.size;
  const upper = new Float64Array(n * n);
  const diagonal = new Float64Array(n);
  const special = new Map<string, Float64Array>();
  const column = new Float64Array(n);
  for (const d of block.datasets) {
    const dataset = datasets[d];
    const first = offsets[d] - block.offset;
    const end = first + dataset.ndata;
    const keys = specialKeys(dataset.uncertainties);
    dataset.uncertainties.forEach((uncertainty, k) => {
      if (uncertainty.type === 'SKIP') return;
      const sigma = absoluteValues(uncertainty, options.t0Predictions?.[d]);
      if (uncertainty.type === 'UNCORR' || uncertainty.type === 'THEORYUNCORR') {
        sigma.forEach((value, i) => (diagonal[first + i] += value * value));
        return;
      }
      const key = keys[k];
      if (key === undefined) {
        column.fill(0, first, end);
        column.set(sigma, first);
        addOuterProduct(upper, n, column, first, end);
        return;
      }
      let shared = special.get(key);
      if (shared === undefined) {
        shared = new Float64Array(n);
        special.set(key, shared);
      }
      shared.set(sigma, first);
    });
  }
  for (const shared of special.values()) {
    const first = shared.findIndex((value) => value !== 0);
    if (first >= 0)
      addOuterProduct(upper, n, shared, first, shared.findLastIndex((value) => value !== 0) + 1);
  }
  const scale = pointScales(block, offsets, options.weights);
  const covariance = createMatrix(n, n);
  const c = covariance.data;
  for (let i = 0; i < n; i++) {
    c[i * n + i] = (upper[i * n + i] + diagonal[i]) * scale[i] * scale[i];
    for (let j = i + 1; j < n; j++) {
      const value = upper[i * n + j] * scale[i] * scale[j];
      c[i * n + j] = value;
      c[j * n + i] = value;
    }
  }
  return covariance;
}

/** 1/√w of the dataset of each point of the block. */
function pointScales(
  block: DatasetBlock,
  offsets: readonly number[],
  weights: readonly number[] | undefined,
): Float64Array {
  const scale = new Float64Array(block.size).fill(1);
  if (weights === undefined) return scale;
  for (const d of block.datasets) {
    scale.fill(1 / Math.sqrt(weights[d]), offsets[d] - block.offset, offsets[d + 1] - block.offset);
  }
  return scale;
}

/**
 * The covariance of `datasets`, block by block (see {@link datasetBlocks}), as upstream
 * validphys builds it (`construct_covmat` and `dataset_inputs_covmat_from_systematics`):
 *
 *   C = diag(Σ_{UNCORR, THEORYUNCORR} σ²) + Σ_{CORR, THEORYCORR} σ σᵀ (within a dataset)
 *       + Σ_{special} σ σᵀ (across the datasets carrying that special name),
 *
 * SKIP uncertainties ignored, MULT σ rescaled to the t0 predictions when given, and
 * C_ij / √(w_i w_j) with the dataset weights.
 *
 * @returns the blocks in data order; the data axis is the datasets concatenated in order
 * @throws ShapeError, InvalidArgumentError - for t0 predictions or weights that do not fit
 */
export function covarianceBlocks(
  datasets: readonly CommonData[],
  options: CovarianceOptions = {},
): CovarianceBlock[] {
  checkOptions(datasets, options);
  const offsets = datasetOffsets(datasets);
  return datasetBlocks(datasets).map((block) => ({
    ...block,
    covariance: blockCovariance(datasets, block, offsets, options),
  }));
}

/**
 * The full covariance of `datasets` concatenated in order (zero between independent blocks),
 * see {@link covarianceBlocks} for the formula and the options.
 *
 * @returns (data, data), symmetric, float64 row-major
 */
export function covarianceMatrix(
  datasets: readonly CommonData[],
  options: CovarianceOptions = {},
): Matrix {
  const ndata = datasets.reduce((total, dataset) => total + dataset.ndata, 0);
  const covariance = createMatrix(ndata, ndata);
  for (const block of covarianceBlocks(datasets, options)) {
    const { offset, size } = block;
    for (let i = 0; i < size; i++) {
      covariance.data.set(
        block.covariance.data.subarray(i * size, (i + 1) * size),
        (offset + i) * ndata + offset,
      );
    }
  }
  return covariance;
}
