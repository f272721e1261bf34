import { cholesky, createMatrix, solveLowerTriangular, type Matrix } from '@partonfit/core';
import type { CovarianceBlockValues } from '@partonfit/fktables';

/** The data of some points of the fit: central values and their experimental covariance. */
export interface PointsCovariance {
  /** The points, indices on the fit's data axis, ascending. */
  readonly points: Int32Array;
  /** The central experimental values at the points, `(points)`. */
  readonly central: Float64Array;
  /** The experimental covariance restricted to the points, `(points, points)`. */
  readonly covariance: Matrix;
  /** Its lower Cholesky factor. */
  readonly cholesky: Matrix;
}

/**
 * The central data and experimental covariance of the points `selected` marks, from the fit's
 * covariance blocks (points of different blocks are uncorrelated).
 *
 * @param selected - 1 at the points to keep, `(data)`
 * @param central - the central data, `(data)`
 * @param blocks - the experimental covariance by block, covering the data axis
 */
export function pointsCovariance(
  selected: Uint8Array,
  central: Float64Array,
  blocks: readonly CovarianceBlockValues[],
): PointsCovariance {
  const kept: number[] = [];
  selected.forEach((used, i) => {
    if (used === 1) kept.push(i);
  });
  const points = Int32Array.from(kept);
  const n = points.length;
  const covariance = createMatrix(n, n);
  const blockOf = new Int32Array(selected.length);
  blocks.forEach((block, b) => blockOf.fill(b, block.offset, block.offset + block.size));
  for (let a = 0; a < n; a++) {
    const i = points[a];
    const block = blocks[blockOf[i]];
    for (let c = 0; c < n; c++) {
      const j = points[c];
      if (blockOf[j] !== blockOf[i]) continue;
      covariance.data[a * n + c] =
        block.covariance[(i - block.offset) * block.size + (j - block.offset)];
    }
  }
  return {
    points,
    central: Float64Array.from(points, (i) => central[i]),
    covariance,
    cholesky: cholesky(covariance),
  };
}

/** rᵀ C⁻¹ r for the residual r at the points, with C = L·Lᵀ. */
export function chi2WithCholesky(factor: Matrix, residual: Float64Array): number {
  const solved = solveLowerTriangular(factor, createMatrix(residual.length, 1, residual));
  let sum = 0;
  for (const value of solved.data) sum += value * value;
  return sum;
}

/** The residuals D − T of each row's predictions at the points, `(rows)` of `(points)`. */
export function residuals(
  data: PointsCovariance,
  predictions: Float64Array,
  ndata: number,
  rows: readonly number[],
): Float64Array[] {
  return rows.map((row) =>
    Float64Array.from(data.points, (i, a) => data.central[a] - predictions[row * ndata + i]),
  );
}
