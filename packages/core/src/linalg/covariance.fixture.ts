import { SeededRandom } from '../seeds/seeded-random.js';
import { createMatrix, type Matrix } from './matrix.js';

/**
 * A random symmetric positive-definite matrix shaped like a covariance: B·Bᵀ/n plus a diagonal
 * of uncorrelated variances, with entries spanning `decades` orders of magnitude in scale.
 */
export function randomCovariance(size: number, seed: number, decades = 0): Matrix {
  const random = new SeededRandom(seed);
  const scales = Float64Array.from(
    { length: size },
    () => 10 ** (decades * (random.uniform() - 0.5)),
  );
  const systematics = Float64Array.from({ length: size * size }, () => random.normal());
  const covariance = createMatrix(size, size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = 0;
      for (let k = 0; k < size; k++) sum += systematics[i * size + k] * systematics[j * size + k];
      const value = (scales[i] * scales[j] * sum) / size + (i === j ? scales[i] * scales[i] : 0);
      covariance.data[i * size + j] = value;
      covariance.data[j * size + i] = value;
    }
  }
  return covariance;
}
