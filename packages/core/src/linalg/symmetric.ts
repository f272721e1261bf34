import { LinearAlgebraError } from '../errors/linear-algebra-error.js';
import { assertSquare, type Matrix } from './matrix.js';

/** Relative tolerance below which a matrix counts as symmetric. */
const SYMMETRY_TOLERANCE = 1e-10;

/**
 * Throws a {@link LinearAlgebraError} unless `matrix` is square, finite and symmetric to
 * 1e-10 relative to its largest element; the message names the first offending row and column.
 */
export function assertSymmetric(matrix: Matrix, operation: string): void {
  assertSquare(matrix, `${operation} input`);
  const { rows: n, data } = matrix;
  let largest = 0;
  for (let i = 0; i < data.length; i++) {
    const value = data[i];
    if (!Number.isFinite(value)) {
      throw new LinearAlgebraError({
        operation,
        problem: `element (${Math.floor(i / n)}, ${i % n}) is ${value}`,
        row: Math.floor(i / n),
      });
    }
    largest = Math.max(largest, Math.abs(value));
  }
  const tolerance = SYMMETRY_TOLERANCE * largest;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const difference = Math.abs(data[i * n + j] - data[j * n + i]);
      if (difference > tolerance) {
        throw new LinearAlgebraError({
          operation,
          problem: `matrix is not symmetric: elements (${i}, ${j}) and (${j}, ${i}) differ by ${difference.toExponential(3)}`,
          row: i,
        });
      }
    }
  }
}
