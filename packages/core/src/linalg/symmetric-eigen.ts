import { LinearAlgebraError } from '../errors/linear-algebra-error.js';
import { createMatrix, type Matrix } from './matrix.js';
import { assertSymmetric } from './symmetric.js';

/** The eigensystem of a symmetric matrix: `A = Vᵀ · diag(values) · V`. */
export interface SymmetricEigensystem {
  /** The eigenvalues in ascending order, (n). */
  readonly values: Float64Array;
  /**
   * (eigenvalue, component) = (n, n): row i is the unit eigenvector of `values[i]`. The rows are
   * orthonormal, so this is the rotation into the eigenbasis (NNPDF's diagonal-basis split
   * uses it as Rᵀ).
   */
  readonly vectors: Matrix;
}

/** QL sweeps allowed per eigenvalue before giving up. */
const MAX_ITERATIONS = 60;

/**
 * The eigenvalues and orthonormal eigenvectors of a real symmetric matrix, in float64, by
 * Householder reduction to tridiagonal form followed by the implicit QL algorithm with
 * Wilkinson-style shifts (the EISPACK tred2/tql2 method, about 9n³ flops with vectors).
 *
 * The orthogonal transform is held transposed (one eigenvector per row), so the rotations of
 * the QL sweeps and the Householder updates all run over contiguous memory.
 *
 * @param matrix - (n, n), symmetric (only the lower triangle is used after the symmetry check)
 * @throws LinearAlgebraError - if the matrix is not symmetric or finite, or QL does not converge
 */
export function symmetricEigen(matrix: Matrix): SymmetricEigensystem {
  assertSymmetric(matrix, 'symmetricEigen');
  const n = matrix.rows;
  if (n === 0) return { values: new Float64Array(0), vectors: createMatrix(0, 0) };
  // w[j * n + k] holds V[k][j] of the textbook formulation: column j of V is row j of w.
  const w = Float64Array.from(matrix.data);
  const diagonal = new Float64Array(n);
  const offDiagonal = new Float64Array(n);
  reduceToTridiagonal(w, n, diagonal, offDiagonal);
  diagonaliseTridiagonal(w, n, diagonal, offDiagonal);
  return sortAscending(w, n, diagonal);
}

/**
 * Householder reduction of the symmetric matrix in `w` to tridiagonal form (diagonal d,
 * off-diagonal e), leaving in `w` the accumulated orthogonal transform, transposed.
 */
function reduceToTridiagonal(w: Float64Array, n: number, d: Float64Array, e: Float64Array): void {
  for (let j = 0; j < n; j++) d[j] = w[j * n + n - 1];
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]);
    if (scale === 0) {
      e[i] = d[i - 1];
      for (let j = 0; j < i; j++) {
        d[j] = w[j * n + i - 1];
        w[j * n + i] = 0;
        w[i * n + j] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k] /= scale;
        h += d[k] * d[k];
      }
      let f = d[i - 1];
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      multiplyUpperTriangle(w, n, i, d, e);
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j] /= h;
        f += e[j] * d[j];
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] -= hh * d[j];
      subtractRankTwo(w, n, i, d, e);
    }
    d[i] = h;
  }
  // Accumulate the transformations.
  for (let i = 0; i < n - 1; i++) {
    const rowI = i * n;
    const rowNext = (i + 1) * n;
    w[rowI + n - 1] = w[rowI + i];
    w[rowI + i] = 1;
    const h = d[i + 1];
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = w[rowNext + k] / h;
      removeComponent(w, n, i, d);
    }
    for (let k = 0; k <= i; k++) w[rowNext + k] = 0;
  }
  for (let j = 0; j < n; j++) {
    d[j] = w[j * n + n - 1];
    w[j * n + n - 1] = 0;
  }
  w[(n - 1) * n + n - 1] = 1;
  e[0] = 0;
}

/**
 * The rank-2 update of the leading (i, i) block's upper triangle, A −= d·eᵀ + e·dᵀ, then column
 * i − 1 of each row into d (the next Householder vector) and column i cleared. Four rows at a
 * time, sharing the loads of d and e; every entry gets the same operations as one row at a time.
 */
function subtractRankTwo(
  w: Float64Array,
  n: number,
  i: number,
  d: Float64Array,
  e: Float64Array,
): void {
  let j = 0;
  for (; j + 3 < i; j += 4) {
    const rowA = j * n;
    const rowB = rowA + n;
    const rowC = rowB + n;
    const rowD = rowC + n;
    const [fA, fB, fC, fD] = [d[j], d[j + 1], d[j + 2], d[j + 3]];
    const [gA, gB, gC, gD] = [e[j], e[j + 1], e[j + 2], e[j + 3]];
    // The corner, where the rows start one after another.
    for (let k = j; k < j + 4; k++) w[rowA + k] -= fA * e[k] + gA * d[k];
    for (let k = j + 1; k < j + 4; k++) w[rowB + k] -= fB * e[k] + gB * d[k];
    for (let k = j + 2; k < j + 4; k++) w[rowC + k] -= fC * e[k] + gC * d[k];
    w[rowD + j + 3] -= fD * e[j + 3] + gD * d[j + 3];
    for (let k = j + 4; k < i; k++) {
      const ek = e[k];
      const dk = d[k];
      w[rowA + k] -= fA * ek + gA * dk;
      w[rowB + k] -= fB * ek + gB * dk;
      w[rowC + k] -= fC * ek + gC * dk;
      w[rowD + k] -= fD * ek + gD * dk;
    }
    for (let row = rowA, r = j; r < j + 4; r++, row += n) {
      d[r] = w[row + i - 1];
      w[row + i] = 0;
    }
  }
  for (; j < i; j++) {
    const rowJ = j * n;
    const f = d[j];
    const g = e[j];
    for (let k = j; k < i; k++) w[rowJ + k] -= f * e[k] + g * d[k];
    d[j] = w[rowJ + i - 1];
    w[rowJ + i] = 0;
  }
}

/**
 * e = A·d for the symmetric A held in the upper triangle of the leading (i, i) block of `w`
 * (a row of A times d, plus the row's entries right of the diagonal added into e along the
 * way), storing d in row i. Four rows at a time, so that their dot products are independent
 * chains; every sum runs in the same order as one row at a time, so the result is identical.
 */
function multiplyUpperTriangle(
  w: Float64Array,
  n: number,
  i: number,
  d: Float64Array,
  e: Float64Array,
): void {
  e.fill(0, 0, i);
  const rowI = i * n;
  let j = 0;
  for (; j + 3 < i; j += 4) {
    const rowA = j * n;
    const rowB = rowA + n;
    const rowC = rowB + n;
    const rowD = rowC + n;
    const [fA, fB, fC, fD] = [d[j], d[j + 1], d[j + 2], d[j + 3]];
    w[rowI + j] = fA;
    w[rowI + j + 1] = fB;
    w[rowI + j + 2] = fC;
    w[rowI + j + 3] = fD;
    // The corner: each row adds into the entries of e that the next rows start from.
    let gA = e[j] + w[rowA + j] * fA;
    for (let k = j + 1; k < j + 4; k++) {
      gA += w[rowA + k] * d[k];
      e[k] += w[rowA + k] * fA;
    }
    let gB = e[j + 1] + w[rowB + j + 1] * fB;
    for (let k = j + 2; k < j + 4; k++) {
      gB += w[rowB + k] * d[k];
      e[k] += w[rowB + k] * fB;
    }
    let gC = e[j + 2] + w[rowC + j + 2] * fC;
    gC += w[rowC + j + 3] * d[j + 3];
    e[j + 3] += w[rowC + j + 3] * fC;
    let gD = e[j + 3] + w[rowD + j + 3] * fD;
    for (let k = j + 4; k < i; k++) {
      const a = w[rowA + k];
      const b = w[rowB + k];
      const c = w[rowC + k];
      const dd = w[rowD + k];
      const dk = d[k];
      gA += a * dk;
      gB += b * dk;
      gC += c * dk;
      gD += dd * dk;
      e[k] = e[k] + a * fA + b * fB + c * fC + dd * fD;
    }
    e[j] = gA;
    e[j + 1] = gB;
    e[j + 2] = gC;
    e[j + 3] = gD;
  }
  for (; j < i; j++) {
    const rowJ = j * n;
    const f = d[j];
    w[rowI + j] = f;
    let g = e[j] + w[rowJ + j] * f;
    for (let k = j + 1; k < i; k++) {
      g += w[rowJ + k] * d[k];
      e[k] += w[rowJ + k] * f;
    }
    e[j] = g;
  }
}

/**
 * Rows 0…i of `w` (their first i + 1 entries) lose their component along row i + 1:
 * w_j −= (w_{i+1} · w_j) d. Four rows at a time, so that their dot products are independent
 * chains; each row's sums run in the same order as on its own, so the result is identical.
 */
function removeComponent(w: Float64Array, n: number, i: number, d: Float64Array): void {
  const rowNext = (i + 1) * n;
  let j = 0;
  for (; j + 3 <= i; j += 4) {
    const rowA = j * n;
    const rowB = rowA + n;
    const rowC = rowB + n;
    const rowD = rowC + n;
    let gA = 0;
    let gB = 0;
    let gC = 0;
    let gD = 0;
    for (let k = 0; k <= i; k++) {
      const u = w[rowNext + k];
      gA += u * w[rowA + k];
      gB += u * w[rowB + k];
      gC += u * w[rowC + k];
      gD += u * w[rowD + k];
    }
    for (let k = 0; k <= i; k++) {
      const dk = d[k];
      w[rowA + k] -= gA * dk;
      w[rowB + k] -= gB * dk;
      w[rowC + k] -= gC * dk;
      w[rowD + k] -= gD * dk;
    }
  }
  for (; j <= i; j++) {
    const rowJ = j * n;
    let g = 0;
    for (let k = 0; k <= i; k++) g += w[rowNext + k] * w[rowJ + k];
    for (let k = 0; k <= i; k++) w[rowJ + k] -= g * d[k];
  }
}

/** Implicit QL on the tridiagonal (d, e), rotating the rows of `w` along. */
function diagonaliseTridiagonal(
  w: Float64Array,
  n: number,
  d: Float64Array,
  e: Float64Array,
): void {
  for (let i = 1; i < n; i++) e[i - 1] = e[i];
  e[n - 1] = 0;
  let shift = 0;
  let norm = 0;
  const epsilon = Number.EPSILON;
  const sines = new Float64Array(n);
  const cosines = new Float64Array(n);
  for (let l = 0; l < n; l++) {
    norm = Math.max(norm, Math.abs(d[l]) + Math.abs(e[l]));
    let m = l;
    while (m < n - 1 && Math.abs(e[m]) > epsilon * norm) m++;
    if (m > l) {
      let iterations = 0;
      do {
        if (++iterations > MAX_ITERATIONS) {
          throw new LinearAlgebraError({
            operation: 'symmetricEigen',
            problem: `QL iteration did not converge for eigenvalue ${l} of ${n}`,
            row: l,
          });
        }
        let g = d[l];
        let p = (d[l + 1] - g) / (2 * e[l]);
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const dl1 = d[l + 1];
        let h = g - d[l];
        for (let i = l + 2; i < n; i++) d[i] -= h;
        shift += h;
        p = d[m];
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1];
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = Math.hypot(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          sines[i] = s;
          cosines[i] = c;
        }
        rotateSweep(w, n, l, m, sines, cosines);
        p = (-s * s2 * c3 * el1 * e[l]) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]) > epsilon * norm);
    }
    d[l] += shift;
    e[l] = 0;
  }
}

/**
 * Applies a QL sweep's plane rotations to the rows of `w`: for i = m − 1 down to l, rows i and
 * i + 1 by (cosines[i], sines[i]). Four consecutive rotations go through the rows in one pass,
 * the shared row held between them; every entry sees the same operations in the same order as
 * with one pass per rotation, so the result is identical.
 */
function rotateSweep(
  w: Float64Array,
  n: number,
  l: number,
  m: number,
  sines: Float64Array,
  cosines: Float64Array,
): void {
  let i = m - 1;
  for (; i - 3 >= l; i -= 4) {
    const [s1, s2, s3, s4] = [sines[i], sines[i - 1], sines[i - 2], sines[i - 3]];
    const [c1, c2, c3, c4] = [cosines[i], cosines[i - 1], cosines[i - 2], cosines[i - 3]];
    const row1 = i * n;
    const row0 = row1 + n;
    const row2 = row1 - n;
    const row3 = row2 - n;
    const row4 = row3 - n;
    for (let k = 0; k < n; k++) {
      const next = w[row0 + k];
      const current1 = w[row1 + k];
      w[row0 + k] = s1 * current1 + c1 * next;
      const rotated1 = c1 * current1 - s1 * next;
      const current2 = w[row2 + k];
      w[row1 + k] = s2 * current2 + c2 * rotated1;
      const rotated2 = c2 * current2 - s2 * rotated1;
      const current3 = w[row3 + k];
      w[row2 + k] = s3 * current3 + c3 * rotated2;
      const rotated3 = c3 * current3 - s3 * rotated2;
      const current4 = w[row4 + k];
      w[row3 + k] = s4 * current4 + c4 * rotated3;
      w[row4 + k] = c4 * current4 - s4 * rotated3;
    }
  }
  for (; i >= l; i--) {
    const s = sines[i];
    const c = cosines[i];
    const rowI = i * n;
    const rowNext = rowI + n;
    for (let k = 0; k < n; k++) {
      const next = w[rowNext + k];
      const current = w[rowI + k];
      w[rowNext + k] = s * current + c * next;
      w[rowI + k] = c * current - s * next;
    }
  }
}

function sortAscending(w: Float64Array, n: number, d: Float64Array): SymmetricEigensystem {
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => d[a] - d[b]);
  const values = Float64Array.from(order, (i) => d[i]);
  const vectors = createMatrix(n, n);
  order.forEach((from, to) => {
    vectors.data.set(w.subarray(from * n, from * n + n), to * n);
  });
  return { values, vectors };
}
