import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { ShapeError } from '../errors/shape-error.js';

/**
 * A dense float64 matrix stored row-major: element (i, j) is `data[i * columns + j]`.
 * Used at set-up time (covariances, rotations); the training step works in float32 tensors.
 */
export interface Matrix {
  readonly rows: number;
  readonly columns: number;
  readonly data: Float64Array;
}

/**
 * A `rows × columns` matrix over `data` (not copied), or filled with zeros when `data` is
 * omitted.
 */
export function createMatrix(rows: number, columns: number, data?: Float64Array): Matrix {
  if (!Number.isInteger(rows) || !Number.isInteger(columns) || rows < 0 || columns < 0) {
    throw new InvalidArgumentError({
      argument: 'rows, columns',
      problem: `expected non-negative integers, got ${rows} × ${columns}`,
    });
  }
  if (data !== undefined && data.length !== rows * columns) {
    throw new ShapeError({
      quantity: 'matrix data',
      expected: [rows * columns],
      actual: [data.length],
    });
  }
  return { rows, columns, data: data ?? new Float64Array(rows * columns) };
}

/** A matrix from nested rows, e.g. `matrixFromRows([[1, 2], [3, 4]])`. */
export function matrixFromRows(rows: readonly (readonly number[])[]): Matrix {
  const columns = rows[0]?.length ?? 0;
  const result = createMatrix(rows.length, columns);
  rows.forEach((row, i) => {
    if (row.length !== columns) {
      throw new ShapeError({
        quantity: `matrix row ${i}`,
        expected: [columns],
        actual: [row.length],
      });
    }
    result.data.set(row, i * columns);
  });
  return result;
}

/** The `size × size` identity matrix. */
export function identityMatrix(size: number): Matrix {
  const result = createMatrix(size, size);
  for (let i = 0; i < size; i++) result.data[i * size + i] = 1;
  return result;
}

/** The transpose of `matrix`. */
export function transposeMatrix(matrix: Matrix): Matrix {
  const { rows, columns, data } = matrix;
  const result = createMatrix(columns, rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) result.data[j * rows + i] = data[i * columns + j];
  }
  return result;
}

/** The product `left · right`. */
export function multiplyMatrices(left: Matrix, right: Matrix): Matrix {
  if (left.columns !== right.rows) {
    throw new ShapeError({
      quantity: 'right factor of a matrix product',
      expected: [left.columns, null],
      actual: [right.rows, right.columns],
    });
  }
  const result = createMatrix(left.rows, right.columns);
  const n = right.columns;
  for (let i = 0; i < left.rows; i++) {
    const resultRow = i * n;
    for (let k = 0; k < left.columns; k++) {
      const factor = left.data[i * left.columns + k];
      if (factor === 0) continue;
      const rightRow = k * n;
      for (let j = 0; j < n; j++) result.data[resultRow + j] += factor * right.data[rightRow + j];
    }
  }
  return result;
}

/**
 * The principal submatrix `A[indices, indices]` of a square matrix (e.g. the covariance of the
 * training points of a dataset).
 *
 * @param matrix - (n, n)
 * @param indices - k distinct row/column indices in [0, n), in the order wanted
 * @returns (k, k)
 */
export function principalSubmatrix(matrix: Matrix, indices: ArrayLike<number>): Matrix {
  assertSquare(matrix, 'matrix of principalSubmatrix');
  const n = matrix.rows;
  const k = indices.length;
  const sub = createMatrix(k, k);
  for (let i = 0; i < k; i++) {
    const row = indices[i];
    if (!Number.isInteger(row) || row < 0 || row >= n) {
      throw new InvalidArgumentError({
        argument: 'indices',
        problem: `entry ${i} is ${row}, not a row of the ${n}×${n} matrix`,
      });
    }
    for (let j = 0; j < k; j++) sub.data[i * k + j] = matrix.data[row * n + indices[j]];
  }
  return sub;
}

/** The largest absolute element of `left − right` (both of the same shape). */
export function maxAbsDifference(left: Matrix, right: Matrix): number {
  if (left.rows !== right.rows || left.columns !== right.columns) {
    throw new ShapeError({
      quantity: 'matrices compared',
      expected: [left.rows, left.columns],
      actual: [right.rows, right.columns],
    });
  }
  let largest = 0;
  for (let i = 0; i < left.data.length; i++) {
    largest = Math.max(largest, Math.abs(left.data[i] - right.data[i]));
  }
  return largest;
}

/** Throws a {@link ShapeError} unless `matrix` is square. */
export function assertSquare(matrix: Matrix, quantity: string): void {
  if (matrix.rows !== matrix.columns) {
    throw new ShapeError({
      quantity,
      expected: [matrix.rows, matrix.rows],
      actual: [matrix.rows, matrix.columns],
    });
  }
}
