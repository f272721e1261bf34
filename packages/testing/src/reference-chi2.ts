/** x with A·x = b, by Gaussian elimination with partial pivoting (A is n×n row-major). */
function solveByElimination(a: readonly number[], b: readonly number[]): number[] {
  const n = b.length;
  const m = Array.from({ length: n }, (_, i) => [...a.slice(i * n, (i + 1) * n), b[i]]);
  for (let k = 0; k < n; k++) {
    let pivot = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(m[i][k]) > Math.abs(m[pivot][k])) pivot = i;
    [m[k], m[pivot]] = [m[pivot], m[k]];
    for (let i = k + 1; i < n; i++) {
      const factor = m[i][k] / m[k][k];
      for (let j = k; j <= n; j++) m[i][j] -= factor * m[k][j];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let sum = m[i][n];
    for (let j = i + 1; j < n; j++) sum -= m[i][j] * x[j];
    x[i] = sum / m[i][i];
  }
  return x;
}

/**
 * The χ² rᵀ A⁻¹ r of the residuals at `points` with the covariance A of those points, by a plain
 * Gaussian solve — an independent reference for the Cholesky-based χ² structures.
 *
 * @param entry - A's entry (i, j) for data points i and j
 * @param residuals - (data), indexed by the point numbers of `points`
 */
export function chi2BySolve(
  points: readonly number[],
  entry: (i: number, j: number) => number,
  residuals: ArrayLike<number>,
): number {
  const covariance = points.flatMap((i) => points.map((j) => entry(i, j)));
  const r = points.map((i) => residuals[i]);
  const x = solveByElimination(covariance, r);
  return r.reduce((sum, value, i) => sum + value * x[i], 0);
}
