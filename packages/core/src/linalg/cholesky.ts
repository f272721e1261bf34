import { LinearAlgebraError } from '../errors/linear-algebra-error.js';
import { ShapeError } from '../errors/shape-error.js';
import { createMatrix, type Matrix } from './matrix.js';
import { assertSymmetric } from './symmetric.js';

/**
 * The Cholesky factor of a symmetric positive-definite matrix: the lower-triangular L with
 * positive diagonal such that `A = L · Lᵀ` (e.g. of a covariance, for pseudodata D + L·z).
 *
 * Row-oriented (Cholesky–Banachiewicz), so every inner product runs over contiguous memory;
 * n³/3 multiply-adds.
 *
 * @param matrix - (n, n), symmetric positive definite
 * @returns (n, n), lower triangular, zeros above the diagonal
 * @throws LinearAlgebraError - if the matrix is not symmetric or not positive definite (naming
 *   the row where a pivot was not positive)
 */
export function cholesky(matrix: Matrix): Matrix {
  assertSymmetric(matrix, 'cholesky');
  const n = matrix.rows;
  const a = matrix.data;
  const factor = createMatrix(n, n);
  const l = factor.data;
  for (let i = 0; i < n; i++) {
    const rowI = i * n;
    for (let j = 0; j <= i; j++) {
      const rowJ = j * n;
      const sum = a[rowI + j] - rowDot(l, rowI, rowJ, j);
      if (i === j) {
        if (!(sum > 0)) {
          throw new LinearAlgebraError({
            operation: 'cholesky',
            problem: `matrix is not positive definite: pivot ${sum.toExponential(3)} at row ${i} of ${n}`,
            row: i,
          });
        }
        l[rowI + i] = Math.sqrt(sum);
      } else {
        l[rowI + j] = sum / l[rowJ + j];
      }
    }
  }
  return factor;
}

/**
 * Σ_{k<length} data[first + k] · data[second + k], over four independent partial sums so the
 * multiply-adds do not wait on one another.
 */
function rowDot(data: Float64Array, first: number, second: number, length: number): number {
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  let k = 0;
  for (; k + 3 < length; k += 4) {
    sum0 += data[first + k] * data[second + k];
    sum1 += data[first + k + 1] * data[second + k + 1];
    sum2 += data[first + k + 2] * data[second + k + 2];
    sum3 += data[first + k + 3] * data[second + k + 3];
  }
  for (; k < length; k++) sum0 += data[first + k] * data[second + k];
  return sum0 + sum1 + (sum2 + sum3);
}

function checkRightHandSide(lower: Matrix, rightHandSide: Matrix, operation: string): void {
  if (rightHandSide.rows !== lower.rows) {
    throw new ShapeError({
      quantity: `${operation} right-hand side`,
      expected: [lower.rows, null],
      actual: [rightHandSide.rows, rightHandSide.columns],
    });
  }
}

/**
 * Solves `L · X = B` by forward substitution, for a lower-triangular L.
 *
 * @param lower - (n, n) lower triangular (only the lower triangle is read)
 * @param rightHandSide - (n, m)
 * @returns X, (n, m)
 */
export function solveLowerTriangular(lower: Matrix, rightHandSide: Matrix): Matrix {
  checkRightHandSide(lower, rightHandSide, 'solveLowerTriangular');
  const n = lower.rows;
  const m = rightHandSide.columns;
  const l = lower.data;
  const x = Float64Array.from(rightHandSide.data);
  for (let i = 0; i < n; i++) {
    const rowI = i * m;
    for (let k = 0; k < i; k++) {
      const factor = l[i * n + k];
      if (factor === 0) continue;
      const rowK = k * m;
      for (let c = 0; c < m; c++) x[rowI + c] -= factor * x[rowK + c];
    }
    const pivot = l[i * n + i];
    if (pivot === 0) {
      throw new LinearAlgebraError({
        operation: 'solveLowerTriangular',
        problem: `zero pivot at row ${i}`,
        row: i,
      });
    }
    for (let c = 0; c < m; c++) x[rowI + c] /= pivot;
  }
  return createMatrix(n, m, x);
}

/**
 * Solves `Lᵀ · X = B` by back substitution, for a lower-triangular L (so Lᵀ is upper
 * triangular), reading L by rows.
 *
 * @param lower - (n, n) lower triangular (only the lower triangle is read)
 * @param rightHandSide - (n, m)
 * @returns X, (n, m)
 */
export function solveLowerTransposed(lower: Matrix, rightHandSide: Matrix): Matrix {
  checkRightHandSide(lower, rightHandSide, 'solveLowerTransposed');
  const n = lower.rows;
  const m = rightHandSide.columns;
  const l = lower.data;
  const x = Float64Array.from(rightHandSide.data);
  for (let i = n - 1; i >= 0; i--) {
    const rowI = i * m;
    const pivot = l[i * n + i];
    if (pivot === 0) {
      throw new LinearAlgebraError({
        operation: 'solveLowerTransposed',
        problem: `zero pivot at row ${i}`,
        row: i,
      });
    }
    for (let c = 0; c < m; c++) x[rowI + c] /= pivot;
    for (let k = 0; k < i; k++) {
      const factor = l[i * n + k];
      if (factor === 0) continue;
      const rowK = k * m;
      for (let c = 0; c < m; c++) x[rowK + c] -= factor * x[rowI + c];
    }
  }
  return createMatrix(n, m, x);
}

/**
 * Solves `A · X = B` given the Cholesky factor L of A (`A = L · Lᵀ`).
 *
 * @param lower - (n, n), from {@link cholesky}
 * @param rightHandSide - (n, m)
 * @returns X, (n, m)
 */
export function solveWithCholesky(lower: Matrix, rightHandSide: Matrix): Matrix {
  return solveLowerTransposed(lower, solveLowerTriangular(lower, rightHandSide));
}

/**
 * The inverse of a symmetric positive-definite matrix (e.g. C⁻¹ for χ²), through its Cholesky
 * factor: `A⁻¹ = L⁻ᵀ · L⁻¹`, accumulated row by row and exactly symmetric.
 *
 * @param matrix - (n, n), symmetric positive definite
 * @returns (n, n), symmetric
 * @throws LinearAlgebraError - if the matrix is not symmetric positive definite
 */
export function invertSymmetricPositiveDefinite(matrix: Matrix): Matrix {
  return inverseFromCholesky(cholesky(matrix));
}

/**
 * The inverse of a symmetric positive-definite matrix from its Cholesky factor L (as
 * {@link cholesky} returns it): `A⁻¹ = L⁻ᵀ · L⁻¹`, accumulated row by row and exactly symmetric.
 * Equal, bit for bit, to {@link invertSymmetricPositiveDefinite} of the matrix, without
 * factorising it again when the factor is at hand (e.g. from drawing pseudodata).
 *
 * @param lower - (n, n), lower triangular with a positive diagonal
 * @returns (n, n), symmetric
 */
export function inverseFromCholesky(lower: Matrix): Matrix {
  const n = lower.rows;
  const l = lower.data;
  // L⁻¹ is lower triangular: solve L · Y = I one row of Y at a time, two rows per pass over the
  // rows above them.
  const lowerInverse = new Float64Array(n * n);
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const rowA = i * n;
    const rowB = rowA + n;
    for (let k = 0; k < i; k++) {
      const factorA = l[rowA + k];
      const factorB = l[rowB + k];
      const rowK = k * n;
      if (factorA !== 0 && factorB !== 0) {
        for (let c = 0; c <= k; c++) {
          const above = lowerInverse[rowK + c];
          lowerInverse[rowA + c] -= factorA * above;
          lowerInverse[rowB + c] -= factorB * above;
        }
      } else {
        subtractScaledRow(lowerInverse, rowA, rowK, factorA, k);
        subtractScaledRow(lowerInverse, rowB, rowK, factorB, k);
      }
    }
    finishInverseRow(lowerInverse, l, rowA, i);
    subtractScaledRow(lowerInverse, rowB, rowA, l[rowB + i], i);
    finishInverseRow(lowerInverse, l, rowB, i + 1);
  }
  if (i < n) {
    const rowI = i * n;
    for (let k = 0; k < i; k++) subtractScaledRow(lowerInverse, rowI, k * n, l[rowI + k], k);
    finishInverseRow(lowerInverse, l, rowI, i);
  }
  // A⁻¹ = L⁻ᵀ·L⁻¹: with U = (L⁻¹)ᵀ upper triangular, (A⁻¹)ᵢⱼ = Σ_{k ≥ max(i,j)} Uᵢₖ·Uⱼₖ, a dot
  // product of two contiguous rows of U.
  const upper = new Float64Array(n * n);
  for (let row = 0; row < n; row++) {
    for (let k = 0; k <= row; k++) upper[k * n + row] = lowerInverse[row * n + k];
  }
  const inverse = createMatrix(n, n);
  const out = inverse.data;
  for (let row = 0; row < n; row++) {
    const rowI = row * n;
    for (let j = row; j < n; j++) {
      const rowJ = j * n;
      const sum = rowDot(upper, rowI + j, rowJ + j, n - j);
      out[rowI + j] = sum;
      out[rowJ + row] = sum;
    }
  }
  return inverse;
}

/** Row `target` of `data` −= factor × row `source`, over columns 0…last; nothing when factor is 0. */
function subtractScaledRow(
  data: Float64Array,
  target: number,
  source: number,
  factor: number,
  last: number,
): void {
  if (factor === 0) return;
  for (let c = 0; c <= last; c++) data[target + c] -= factor * data[source + c];
}

/** Divides row i of L⁻¹ (columns below i) by L's pivot and sets its diagonal to 1 / pivot. */
function finishInverseRow(
  lowerInverse: Float64Array,
  l: Float64Array,
  rowI: number,
  i: number,
): void {
  const pivot = l[rowI + i];
  for (let c = 0; c < i; c++) lowerInverse[rowI + c] /= pivot;
  lowerInverse[rowI + i] = 1 / pivot;
}
