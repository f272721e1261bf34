import { createMatrix, SeededRandom, type Matrix } from '@partonfit/core';

/**
 * A random block-diagonal covariance: each block is A·Aᵀ + diag(d) with A of `size × size`
 * normal entries, with per-point scales spanning two decades, like real uncertainties.
 */
export function blockCovariance(sizes: readonly number[], seed: number): Matrix {
  const random = new SeededRandom(seed);
  const ndata = sizes.reduce((sum, size) => sum + size, 0);
  const covariance = createMatrix(ndata, ndata);
  let offset = 0;
  for (const size of sizes) {
    const a = random.normals(size * size);
    const scale = Float64Array.from({ length: size }, () => 10 ** random.uniformBetween(-1, 1));
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        let sum = i === j ? 0.5 : 0;
        for (let k = 0; k < size; k++) sum += a[i * size + k] * a[j * size + k];
        covariance.data[(offset + i) * ndata + offset + j] = sum * scale[i] * scale[j];
      }
    }
    offset += size;
  }
  return covariance;
}

/** Contiguous blocks of the given sizes. */
export function blocksOfSizes(sizes: readonly number[]): { offset: number; size: number }[] {
  let offset = 0;
  return sizes.map((size) => {
    const block = { offset, size };
    offset += size;
    return block;
  });
}

/** (replicas, data) normal residuals. */
export function randomResiduals(replicas: number, ndata: number, seed: number): Float64Array {
  return new SeededRandom(seed).normals(replicas * ndata);
}
