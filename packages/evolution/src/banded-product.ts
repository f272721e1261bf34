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
 * at and above x, plus the interpolation stencil), and S laid out as `layout` says. Four rows of
 * C are computed together from four rows of S at a time, so each entry of S read serves sixteen
 * products (the rows' entries of M below their band are zero and add nothing). For an operator
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
  // The first column within a column block that row i of C needs from row l of S: S's row l can
  // be non-zero from l − B, C's row i is kept from i − B.
  const firstColumn = (l: number, i: number) =>
    layout === 'dense' ? 0 : Math.max(0, (l > i ? l : i) - layout);
  for (let blockRow = 0; blockRow < blocks; blockRow++) {
    let i = 0;
    for (; i + 3 < n; i += 4) {
      const o0 = (blockRow * n + i) * columns;
      const o1 = o0 + columns;
      const o2 = o1 + columns;
      const o3 = o2 + columns;
      for (let blockColumn = 0; blockColumn < blocks; blockColumn++) {
        const k0 = (blockRow * n + i) * size + blockColumn * n;
        const k1 = k0 + size;
        const k2 = k1 + size;
        const k3 = k2 + size;
        let l = Math.max(0, i - band);
        for (; l + 3 < n; l += 4) {
          const a0 = kernel[k0 + l];
          const a1 = kernel[k0 + l + 1];
          const a2 = kernel[k0 + l + 2];
          const a3 = kernel[k0 + l + 3];
          const b0 = kernel[k1 + l];
          const b1 = kernel[k1 + l + 1];
          const b2 = kernel[k1 + l + 2];
          const b3 = kernel[k1 + l + 3];
          const c0 = kernel[k2 + l];
          const c1 = kernel[k2 + l + 1];
          const c2 = kernel[k2 + l + 2];
          const c3 = kernel[k2 + l + 3];
          const d0 = kernel[k3 + l];
          const d1 = kernel[k3 + l + 1];
          const d2 = kernel[k3 + l + 2];
          const d3 = kernel[k3 + l + 3];
          const s0 = (blockColumn * n + l) * columns;
          const s1 = s0 + columns;
          const s2 = s1 + columns;
          const s3 = s2 + columns;
          const first0 = firstColumn(l, i);
          const first1 = firstColumn(l, i + 1);
          const first2 = firstColumn(l, i + 2);
          const shared = firstColumn(l, i + 3);
          for (let columnBlock = 0; columnBlock < columnBlocks; columnBlock++) {
            const base = columnBlock * width;
            // The columns where the upper rows' bands start before the lowest row's.
            for (let c = base + first0; c < base + shared; c++) {
              const x0 = state[s0 + c];
              const x1 = state[s1 + c];
              const x2 = state[s2 + c];
              const x3 = state[s3 + c];
              out[o0 + c] += a0 * x0 + a1 * x1 + a2 * x2 + a3 * x3;
              if (c >= base + first1) out[o1 + c] += b0 * x0 + b1 * x1 + b2 * x2 + b3 * x3;
              if (c >= base + first2) out[o2 + c] += c0 * x0 + c1 * x1 + c2 * x2 + c3 * x3;
            }
            const to = base + width;
            for (let c = base + shared; c < to; c++) {
              const x0 = state[s0 + c];
              const x1 = state[s1 + c];
              const x2 = state[s2 + c];
              const x3 = state[s3 + c];
              out[o0 + c] += a0 * x0 + a1 * x1 + a2 * x2 + a3 * x3;
              out[o1 + c] += b0 * x0 + b1 * x1 + b2 * x2 + b3 * x3;
              out[o2 + c] += c0 * x0 + c1 * x1 + c2 * x2 + c3 * x3;
              out[o3 + c] += d0 * x0 + d1 * x1 + d2 * x2 + d3 * x3;
            }
          }
        }
        for (let row = 0; row < 4; row++) {
          addRowTail(kernel, state, out, k0 + row * size, o0 + row * columns, l, n, blockColumn, {
            columns,
            columnBlocks,
            width,
            first: (from) => firstColumn(from, i + row),
          });
        }
      }
    }
    for (; i < n; i++) {
      for (let blockColumn = 0; blockColumn < blocks; blockColumn++) {
        const row = blockRow * n + i;
        addRowTail(
          kernel,
          state,
          out,
          row * size + blockColumn * n,
          row * columns,
          Math.max(0, i - band),
          n,
          blockColumn,
          { columns, columnBlocks, width, first: (from) => firstColumn(from, i) },
        );
      }
    }
  }
}

/** How a row of C is laid out in {@link multiplyBanded}. */
interface RowLayout {
  readonly columns: number;
  readonly columnBlocks: number;
  readonly width: number;
  /** The first column within a column block that the row needs from row l of S. */
  readonly first: (l: number) => number;
}

/** C's row += M's row (from `kernelOffset`) at columns l … n − 1 of a block times S's rows there. */
function addRowTail(
  kernel: Float64Array,
  state: Float64Array,
  out: Float64Array,
  kernelOffset: number,
  outOffset: number,
  from: number,
  n: number,
  blockColumn: number,
  { columns, columnBlocks, width, first }: RowLayout,
): void {
  for (let l = from; l < n; l++) {
    const value = kernel[kernelOffset + l];
    if (value === 0) continue;
    const stateOffset = (blockColumn * n + l) * columns;
    const start = first(l);
    for (let columnBlock = 0; columnBlock < columnBlocks; columnBlock++) {
      const to = (columnBlock + 1) * width;
      for (let c = columnBlock * width + start; c < to; c++) {
        out[outOffset + c] += value * state[stateOffset + c];
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
