/**
 * How an evolving state's columns are laid out. `'dense'`: any columns (PDFs, a column per
 * replica). A number B: the state is an operator, its columns blocks of n (one per input flavour
 * of the x-grid), each (x out, x in) block upper triangular but for B sub-diagonals; products keep
 * that shape and drop what falls below it.
 */
export type StateLayout = 'dense' | number;

/**
 * C = M·S for a kernel matrix M made of `blocks × blocks` square blocks of size n, each upper
 * triangular except for `band` sub-diagonals (a convolution on an x-grid only reaches the knots
 * at and above x, plus the interpolation stencil), and S laid out as `layout` says. M's rows are
 * read eight entries at a time (a convolution's upper triangle has few zeros). For an operator
 * state only the entries of C within its band are computed, and S's entries below its band must
 * be zero.
 *
 * @param kernel - M, (blocks·n, blocks·n) row-major
 * @param state - S, (blocks·n, columns) row-major
 * @param out - C, (blocks·n, columns) row-major, overwritten
 * @param n - the block size (x knots)
 * @param blocks - blocks per side (1 non-singlet, 2 singlet)
 * @param columns - the columns of S (a multiple of n for an operator state)
 * @param band - the sub-diagonals of each block of M
 * @param layout - the layout of S and C
 */
export function multiplyBanded(
  kernel: Float64Array,
  state: Float64Array,
  out: Float64Array,
  n: number,
  blocks: number,
  columns: number,
  band: number,
  layout: StateLayout,
): void {
  out.fill(0);
  const size = n * blocks;
  const columnBlocks = layout === 'dense' ? 1 : columns / n;
  const width = layout === 'dense' ? columns : n;
  // The columns of S's row l that can be non-zero, and C's row i needs: from max(l, i) − B.
  const firstColumn = (l: number, i: number) =>
    layout === 'dense' ? 0 : Math.max(0, (l > i ? l : i) - layout);
  for (let blockRow = 0; blockRow < blocks; blockRow++) {
    for (let i = 0; i < n; i++) {
      const row = blockRow * n + i;
      const outOffset = row * columns;
      for (let blockColumn = 0; blockColumn < blocks; blockColumn++) {
        const kernelOffset = row * size + blockColumn * n;
        let l = Math.max(0, i - band);
        // Eight rows of S at a time: C's row is read and written once for eight products.
        for (; l + 7 < n; l += 8) {
          const k = kernelOffset + l;
          const v0 = kernel[k];
          const v1 = kernel[k + 1];
          const v2 = kernel[k + 2];
          const v3 = kernel[k + 3];
          const v4 = kernel[k + 4];
          const v5 = kernel[k + 5];
          const v6 = kernel[k + 6];
          const v7 = kernel[k + 7];
          const s0 = (blockColumn * n + l) * columns;
          const first = firstColumn(l, i);
          for (let columnBlock = 0; columnBlock < columnBlocks; columnBlock++) {
            const to = (columnBlock + 1) * width;
            for (let c = columnBlock * width + first; c < to; c++) {
              const s = s0 + c;
              out[outOffset + c] +=
                v0 * state[s] +
                v1 * state[s + columns] +
                v2 * state[s + 2 * columns] +
                v3 * state[s + 3 * columns] +
                v4 * state[s + 4 * columns] +
                v5 * state[s + 5 * columns] +
                v6 * state[s + 6 * columns] +
                v7 * state[s + 7 * columns];
            }
          }
        }
        for (; l < n; l++) {
          const value = kernel[kernelOffset + l];
          if (value === 0) continue;
          const stateOffset = (blockColumn * n + l) * columns;
          const first = firstColumn(l, i);
          for (let columnBlock = 0; columnBlock < columnBlocks; columnBlock++) {
            const to = (columnBlock + 1) * width;
            for (let c = columnBlock * width + first; c < to; c++) {
              out[outOffset + c] += value * state[stateOffset + c];
            }
          }
        }
      }
    }
  }
}

/**
 * Sets to zero the entries of an operator state below its band: in each (x out, x in) block,
 * those more than `lowerBand` sub-diagonals below the diagonal.
 *
 * @param state - (rowBlocks·n, columns) row-major, columns a multiple of n; changed in place
 */
export function dropBelowBand(
  state: Float64Array,
  n: number,
  columns: number,
  lowerBand: number,
): Float64Array {
  if (columns === 0) return state;
  const rows = state.length / columns;
  for (let row = 0; row < rows; row++) {
    const i = row % n;
    for (let columnBlock = 0; columnBlock < columns / n; columnBlock++) {
      const offset = row * columns + columnBlock * n;
      state.fill(0, offset, offset + Math.max(0, i - lowerBand));
    }
  }
  return state;
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
  addDenseProduct(a, b, out, rows, inner, columns);
  return out;
}

/**
 * C += A·B for dense A (rows, inner) and B (inner, columns), row-major: A's rows are read eight
 * entries at a time, and eight zeros in a row (below an operator's band) are skipped.
 */
export function addDenseProduct(
  a: Float64Array,
  b: Float64Array,
  out: Float64Array,
  rows: number,
  inner: number,
  columns: number,
): void {
  for (let i = 0; i < rows; i++) {
    const rowOffset = i * inner;
    const outOffset = i * columns;
    let l = 0;
    for (; l + 7 < inner; l += 8) {
      const m = rowOffset + l;
      const v0 = a[m];
      const v1 = a[m + 1];
      const v2 = a[m + 2];
      const v3 = a[m + 3];
      const v4 = a[m + 4];
      const v5 = a[m + 5];
      const v6 = a[m + 6];
      const v7 = a[m + 7];
      const zeros = v0 === 0 && v1 === 0 && v2 === 0 && v3 === 0;
      if (zeros && v4 === 0 && v5 === 0 && v6 === 0 && v7 === 0) continue;
      const b0 = l * columns;
      for (let c = 0; c < columns; c++) {
        const k = b0 + c;
        out[outOffset + c] +=
          v0 * b[k] +
          v1 * b[k + columns] +
          v2 * b[k + 2 * columns] +
          v3 * b[k + 3 * columns] +
          v4 * b[k + 4 * columns] +
          v5 * b[k + 5 * columns] +
          v6 * b[k + 6 * columns] +
          v7 * b[k + 7 * columns];
      }
    }
    for (; l < inner; l++) {
      const value = a[rowOffset + l];
      if (value === 0) continue;
      for (let c = 0; c < columns; c++) out[outOffset + c] += value * b[l * columns + c];
    }
  }
}
