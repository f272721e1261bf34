import { describe, expect, it } from 'vitest';
import { cholesky, inverseFromCholesky } from './cholesky.js';
import { randomCovariance } from './covariance.fixture.js';
import { createMatrix, type Matrix } from './matrix.js';

/**
 * The references: one row at a time, each inner product summed as the kernels do (four partial
 * sums over k ≡ 0, 1, 2, 3 mod 4, the remainder into the first, combined as s0 + s1 + (s2 + s3)),
 * so the kernels that take rows two at a time must match them bit for bit.
 */
function referenceDot(data: Float64Array, first: number, second: number, length: number): number {
  const sums = [0, 0, 0, 0];
  const whole = length - (length % 4);
  for (let k = 0; k < whole; k++) sums[k % 4] += data[first + k] * data[second + k];
  for (let k = whole; k < length; k++) sums[0] += data[first + k] * data[second + k];
  return sums[0] + sums[1] + (sums[2] + sums[3]);
}

function referenceCholesky({ rows: n, data: a }: Matrix): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const sum = a[i * n + j] - referenceDot(l, i * n, j * n, j);
      l[i * n + j] = i === j ? Math.sqrt(sum) : sum / l[j * n + j];
    }
  }
  return l;
}

/** A⁻¹ = Uᵀ·U with U = (L⁻¹)ᵀ, (A⁻¹)ᵢⱼ the dot of rows i and j of U from column max(i, j) on. */
function referenceProduct(lowerInverse: Float64Array, n: number): Float64Array {
  const upper = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k <= i; k++) upper[k * n + i] = lowerInverse[i * n + k];
  const inverse = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const sum = referenceDot(upper, i * n + j, j * n + j, n - j);
      inverse[i * n + j] = sum;
      inverse[j * n + i] = sum;
    }
  }
  return inverse;
}

/** L⁻¹ from the inverse (L⁻¹ = Lᵀ·A⁻¹ is not needed: row i of L⁻¹ solves L·y = e_i in order). */
function referenceLowerInverse(l: Float64Array, n: number): Float64Array {
  const y = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) {
      const factor = l[i * n + k];
      if (factor !== 0) for (let c = 0; c <= k; c++) y[i * n + c] -= factor * y[k * n + c];
    }
    for (let c = 0; c < i; c++) y[i * n + c] /= l[i * n + i];
    y[i * n + i] = 1 / l[i * n + i];
  }
  return y;
}

/** A covariance with whole zero blocks off the diagonal (uncorrelated groups of points). */
function withZeroBlocks(size: number, seed: number): Matrix {
  const covariance = randomCovariance(size, seed, 4);
  const data = Float64Array.from(covariance.data);
  const group = (i: number) => Math.floor((3 * i) / size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) if (group(i) !== group(j)) data[i * size + j] = 0;
  }
  return createMatrix(size, size, data);
}

describe('cholesky and inverseFromCholesky two rows at a time', () => {
  it.each([1, 2, 3, 4, 5, 8, 9, 31, 64, 101])(
    'should equal the one-row-at-a-time order bit for bit at size %i',
    (size) => {
      for (const covariance of [randomCovariance(size, size, 6), withZeroBlocks(size, size + 1)]) {
        const factor = cholesky(covariance);
        const expected = referenceCholesky(covariance);
        expect(factor.data).toEqual(expected);
        const inverse = inverseFromCholesky(factor);
        expect(inverse.data).toEqual(referenceProduct(referenceLowerInverse(expected, size), size));
      }
    },
  );
});
