/**
 * C = M·S for a kernel matrix M made of `blocks × blocks` square blocks of size n, each upper
 * triangular except for `band` sub-diagonals (a convolution on an x-grid only reaches the knots
 * at and above x, plus the interpolation stencil), and any S. Zero entries of M are skipped.
 *
 * @param kernel - M, (blocks·n, blocks·n) row-major
 * @param state - S, (blocks·n, columns) row-major
 * @param out - C, (blocks·n, columns) row-major, overwritten
 * @param n - the block size (x knots)
 * @param blocks - blocks per side (1 non-singlet, 2 singlet)
 * @param columns - the columns of S
 * @param band - the sub-diagonals of each block
 */
export function multiplyBanded(
  kernel: Float64Array,
  state: Float64Array,
  out: Float64Array,
  n: number,
  blocks: number,
  columns: number,
  band: number,
): void {
  out.fill(0);
  const size = n * blocks;
  for (let blockRow = 0; blockRow < blocks; blockRow++) {
    for (let i = 0; i < n; i++) {
      const row = blockRow * n + i;
      const outOffset = row * columns;
      for (let blockColumn = 0; blockColumn < blocks; blockColumn++) {
        const first = Math.max(0, i - band);
        for (let l = first; l < n; l++) {
          const value = kernel[row * size + blockColumn * n + l];
          if (value === 0) continue;
          const stateOffset = (blockColumn * n + l) * columns;
          for (let c = 0; c < columns; c++) out[outOffset + c] += value * state[stateOffset + c];
        }
      }
    }
  }
}

/** C = A·B for dense A (rows, inner) and B (inner, columns), row-major; C is returned new. */
export function multiplyDense(
  a: Float64Array,
  b: Float64Array,
  rows: number,
  inner: number,
  columns: number,
): Float64Array {
  const out = new Float64Array(rows * columns);
  for (let i = 0; i < rows; i++) {
    for (let l = 0; l < inner; l++) {
      const value = a[i * inner + l];
      if (value === 0) continue;
      const bOffset = l * columns;
      const outOffset = i * columns;
      for (let c = 0; c < columns; c++) out[outOffset + c] += value * b[bOffset + c];
    }
  }
  return out;
}
