import { bench, describe } from 'vitest';
import { cholesky, invertSymmetricPositiveDefinite } from './cholesky.js';
import { randomCovariance } from './covariance.fixture.js';
import { symmetricEigen } from './symmetric-eigen.js';

/**
 * Set-up linear algebra on covariance-sized matrices: n = 2000 is a large experiment group,
 * NNPDF4.0's whole dataset is ~4,600 points.
 */
const size = Number(process.env.PARTONFIT_BENCH_LINALG_SIZE ?? 2000);
const covariance = randomCovariance(size, 12345, 2);
const options = { iterations: 3, time: 0, warmupIterations: 0 };

describe(`float64 linear algebra, ${size}×${size}`, () => {
  bench('cholesky', () => void cholesky(covariance), options);
  bench(
    'invertSymmetricPositiveDefinite',
    () => void invertSymmetricPositiveDefinite(covariance),
    options,
  );
  bench('symmetricEigen', () => void symmetricEigen(covariance), { ...options, iterations: 1 });
});
