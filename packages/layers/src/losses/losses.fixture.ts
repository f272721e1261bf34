import type { Chi2Structure, CovarianceChi2, EigenbasisChi2 } from '@partonfit/core';
import { randomArray, toFloat32 } from '../ops/numeric.fixture.js';

/** Block placement `[offset, size]` (and modes for an eigenbasis), with gaps between blocks. */
export type BlockSpec = readonly [offset: number, size: number, modes?: number];

/** A covariance structure with random (not symmetric) weights: the χ² only sees W + Wᵀ. */
export function randomCovarianceStructure(
  ndata: number,
  replicas: number,
  blocks: readonly BlockSpec[],
  seed: number,
): CovarianceChi2 {
  return {
    kind: 'covariance',
    ndata,
    replicas,
    blocks: blocks.map(([offset, size], b) => ({
      offset,
      size,
      weights: toFloat32(randomArray(replicas * size * size, seed + b)),
    })),
  };
}

/** An eigenbasis structure with a random rotation and random non-negative mode weights. */
export function randomEigenbasisStructure(
  ndata: number,
  replicas: number,
  blocks: readonly BlockSpec[],
  seed: number,
): EigenbasisChi2 {
  return {
    kind: 'eigenbasis',
    ndata,
    replicas,
    blocks: blocks.map(([offset, size, modes = size], b) => ({
      offset,
      size,
      modes,
      rotation: toFloat32(randomArray(size * modes, seed + 2 * b)),
      weights: toFloat32(randomArray(replicas * modes, seed + 2 * b + 1, 0, 2)),
    })),
  };
}

/**
 * The float64 loop implementation of χ²_r = Σ_b res_b · W · res_b (or Σ w ε² in the eigenbasis)
 * with res = D − T, and its gradient with respect to the predictions T for upstream weights
 * `upstream (replicas)`.
 */
export function chi2Reference(
  structure: Chi2Structure,
  data: Float32Array,
  predictions: ArrayLike<number>,
  replicas: number,
) {
  const ndata = structure.ndata;
  const dataRows = data.length / ndata;
  const residual = (r: number, i: number) =>
    data[(dataRows === 1 ? 0 : r) * ndata + i] - predictions[r * ndata + i];
  const row = (r: number) => (structure.replicas === 1 ? 0 : r);
  const chi2 = new Float64Array(replicas);
  /** Σ |terms| per replica: the size float32 rounding errors of χ² grow with. */
  const scale = new Float64Array(replicas);
  const gradient = (upstream: ArrayLike<number>) => {
    const out = new Float64Array(replicas * ndata);
    visit((r, i, dChi2dRes) => {
      out[r * ndata + i] -= upstream[r] * dChi2dRes;
    });
    return out;
  };
  /** Calls back with d χ²_r / d res_{r,i} for every covered point, after filling chi2. */
  const visit = (derivative: (r: number, i: number, value: number) => void) => {
    for (let r = 0; r < replicas; r++) {
      for (const block of structure.blocks) {
        const { offset, size } = block;
        if (structure.kind === 'covariance') {
          const w = block.weights;
          const base = row(r) * size * size;
          for (let i = 0; i < size; i++) {
            let d = 0;
            for (let j = 0; j < size; j++) {
              d += (w[base + i * size + j] + w[base + j * size + i]) * residual(r, offset + j);
            }
            derivative(r, offset + i, d);
          }
        } else {
          const { modes, rotation, weights } = block as EigenbasisChi2['blocks'][number];
          for (let k = 0; k < modes; k++) {
            let epsilon = 0;
            for (let i = 0; i < size; i++)
              epsilon += residual(r, offset + i) * rotation[i * modes + k];
            const weight = weights[row(r) * modes + k];
            for (let i = 0; i < size; i++) {
              derivative(r, offset + i, 2 * weight * epsilon * rotation[i * modes + k]);
            }
          }
        }
      }
    }
  };
  for (let r = 0; r < replicas; r++) {
    for (const block of structure.blocks) {
      const { offset, size } = block;
      if (structure.kind === 'covariance') {
        const w = block.weights;
        const base = row(r) * size * size;
        for (let i = 0; i < size; i++) {
          for (let j = 0; j < size; j++) {
            const term = residual(r, offset + i) * w[base + i * size + j] * residual(r, offset + j);
            chi2[r] += term;
            scale[r] += Math.abs(term);
          }
        }
      } else {
        const { modes, rotation, weights } = block as EigenbasisChi2['blocks'][number];
        for (let k = 0; k < modes; k++) {
          let epsilon = 0;
          for (let i = 0; i < size; i++)
            epsilon += residual(r, offset + i) * rotation[i * modes + k];
          const term = weights[row(r) * modes + k] * epsilon * epsilon;
          chi2[r] += term;
          scale[r] += Math.abs(term);
        }
      }
    }
  }
  return { chi2, scale, gradient };
}
