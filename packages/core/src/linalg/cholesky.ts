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
  const pair = new Float64Array(2);
  // Two rows at a time: their entries left of the pair share each pass over the row above, so
  // the factor is read half as often; every entry is the same sum, in the same order, as one
  // row at a time.
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const rowA = i * n;
    const rowB = rowA + n;
    for (let j = 0; j < i; j++) {
      const rowJ = j * n;
      rowDotPair(l, rowA, rowB, rowJ, j, pair);
      l[rowA + j] = (a[rowA + j] - pair[0]) / l[rowJ + j];
      l[rowB + j] = (a[rowB + j] - pair[1]) / l[rowJ + j];
    }
    setPivot(l, a, rowA, i, n);
    l[rowB + i] = (a[rowB + i] - rowDot(l, rowB, rowA, i)) / l[rowA + i];
    setPivot(l, a, rowB, i + 1, n);
  }
  if (i < n) {
    const rowI = i * n;
    for (let j = 0; j < i; j++) {
      const rowJ = j * n;
      l[rowI + j] = (a[rowI + j] - rowDot(l, rowI, rowJ, j)) / l[rowJ + j];
    }
    setPivot(l, a, rowI, i, n);
  }
  return factor;
}

/** L's diagonal entry of row i, √(A_ii − Σ_k L_ik²), once the row's other entries are set. */
function setPivot(l: Float64Array, a: Float64Array, rowI: number, i: number, n: number): void {
  const sum = a[rowI + i] - rowDot(l, rowI, rowI, i);
  if (!(sum > 0)) {
    throw new LinearAlgebraError({
      operation: 'cholesky',
      problem: `matrix is not positive definite: pivot ${sum.toExponential(3)} at row ${i} of ${n}`,
      row: i,
    });
  }
  l[rowI + i] = Math.sqrt(sum);
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

/**
 * {@link rowDot} of two rows (`firstA`, `firstB`) with the same `second` row in one pass, into
 * `out[0]` and `out[1]`: each sum is bit for bit the one {@link rowDot} gives, the loads of
 * the shared row halved.
 */
function rowDotPair(
  data: Float64Array,
  firstA: number,
  firstB: number,
  second: number,
  length: number,
  out: Float64Array,
): void {
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let a3 = 0;
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let b3 = 0;
  let k = 0;
  for (; k + 3 < length; k += 4) {
    const s0 = data[second + k];
    const s1 = data[second + k + 1];
    const s2 = data[second + k + 2];
    const s3 = data[second + k + 3];
    a0 += data[firstA + k] * s0;
    a1 += data[firstA + k + 1] * s1;
    a2 += data[firstA + k + 2] * s2;
    a3 += data[firstA + k + 3] * s3;
    b0 += data[firstB + k] * s0;
    b1 += data[firstB + k + 1] * s1;
    b2 += data[firstB + k + 2] * s2;
    b3 += data[firstB + k + 3] * s3;
  }
  for (; k < length; k++) {
    a0 += data[firstA + k] * data[second + k];
    b0 += data[firstB + k] * data[second + k];
  }
  out[0] = a0 + a1 + (a2 + a3);
  out[1] = b0 + b1 + (b2 + b3);
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
  // L⁻¹ is lower triangular: solve L · Y = I one row of Y at a time, four rows per pass over the
  // rows above them (each entry gets the same subtractions in the same order as row by row).
  const lowerInverse = new Float64Array(n * n);
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const rowA = i * n;
    const rowB = rowA + n;
    const rowC = rowB + n;
    const rowD = rowC + n;
    for (let k = 0; k < i; k++) {
      const factorA = l[rowA + k];
      const factorB = l[rowB + k];
      const factorC = l[rowC + k];
      const factorD = l[rowD + k];
      const rowK = k * n;
      if (factorA !== 0 && factorB !== 0 && factorC !== 0 && factorD !== 0) {
        for (let c = 0; c <= k; c++) {
          const above = lowerInverse[rowK + c];
          lowerInverse[rowA + c] -= factorA * above;
          lowerInverse[rowB + c] -= factorB * above;
          lowerInverse[rowC + c] -= factorC * above;
          lowerInverse[rowD + c] -= factorD * above;
        }
      } else {
        subtractScaledRow(lowerInverse, rowA, rowK, factorA, k);
        subtractScaledRow(lowerInverse, rowB, rowK, factorB, k);
        subtractScaledRow(lowerInverse, rowC, rowK, factorC, k);
        subtractScaledRow(lowerInverse, rowD, rowK, factorD, k);
      }
    }
    finishInverseRow(lowerInverse, l, rowA, i);
    subtractScaledRow(lowerInverse, rowB, rowA, l[rowB + i], i);
    finishInverseRow(lowerInverse, l, rowB, i + 1);
    subtractScaledRow(lowerInverse, rowC, rowA, l[rowC + i], i);
    subtractScaledRow(lowerInverse, rowC, rowB, l[rowC + i + 1], i + 1);
    finishInverseRow(lowerInverse, l, rowC, i + 2);
    subtractScaledRow(lowerInverse, rowD, rowA, l[rowD + i], i);
    subtractScaledRow(lowerInverse, rowD, rowB, l[rowD + i + 1], i + 1);
    subtractScaledRow(lowerInverse, rowD, rowC, l[rowD + i + 2], i + 2);
    finishInverseRow(lowerInverse, l, rowD, i + 3);
  }
  for (; i < n; i++) {
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
  const pair = new Float64Array(2);
  // Two rows at a time, sharing each pass over row j of U (same sums as one row at a time).
  let row = 0;
  for (; row + 1 < n; row += 2) {
    const rowA = row * n;
    const rowB = rowA + n;
    const diagonal = rowDot(upper, rowA + row, rowA + row, n - row);
    out[rowA + row] = diagonal;
    for (let j = row + 1; j < n; j++) {
      const rowJ = j * n;
      rowDotPair(upper, rowA + j, rowB + j, rowJ + j, n - j, pair);
      out[rowA + j] = pair[0];
      out[rowJ + row] = pair[0];
      out[rowB + j] = pair[1];
      out[rowJ + row + 1] = pair[1];
    }
  }
  if (row < n) out[row * n + row] = rowDot(upper, row * n + row, row * n + row, n - row);
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
