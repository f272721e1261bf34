import { createMatrix, SeededRandom, type Matrix } from '@partonfit/core';
import type { BlockCovariance } from '../pseudodata/covariance-blocks.js';

/**
 * Random independent covariance blocks: each is A·Aᵀ + diag(0.5) with A of `size × size`
 * normal entries, with per-point scales spanning two decades, like real uncertainties.
 */
export function randomBlockCovariances(sizes: readonly number[], seed: number): BlockCovariance[] {
  const random = new SeededRandom(seed);
  let offset = 0;
  return sizes.map((size) => {
    const a = random.normals(size * size);
    const scale = Float64Array.from({ length: size }, () => 10 ** random.uniformBetween(-1, 1));
    const covariance = createMatrix(size, size);
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        let sum = i === j ? 0.5 : 0;
        for (let k = 0; k < size; k++) sum += a[i * size + k] * a[j * size + k];
        covariance.data[i * size + j] = sum * scale[i] * scale[j];
      }
    }
    const block = { offset, size, covariance };
    offset += size;
    return block;
  });
}

/** The full (data, data) covariance of independent blocks, zero between blocks. */
export function assembleCovariance(blocks: readonly BlockCovariance[]): Matrix {
  const ndata = blocks.reduce((sum, block) => sum + block.size, 0);
  const full = createMatrix(ndata, ndata);
  for (const { offset, size, covariance } of blocks) {
    for (let i = 0; i < size; i++) {
      full.data.set(
        covariance.data.subarray(i * size, (i + 1) * size),
        (offset + i) * ndata + offset,
      );
    }
  }
  return full;
}

/** (replicas, data) normal residuals. */
export function randomResiduals(replicas: number, ndata: number, seed: number): Float64Array {
  return new SeededRandom(seed).normals(replicas * ndata);
}
