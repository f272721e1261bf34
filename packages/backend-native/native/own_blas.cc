// The BLAS functions of blas.h as the addon's own kernels, for a build without a CBLAS
// (PARTONFIT_NO_CBLAS: none was found at install, or PARTONFIT_CBLAS=none). Single-threaded per
// call like the configured CBLAS: matmul.cc splits products across the addon's thread pool.
//
// sgemm is a cache-blocked product in the usual three levels: a KC x NC block of op(B) is packed
// into slivers NR columns wide (a sliver stays in L1 while it is used for every row panel), an
// MC x KC block of op(A) into panels MR rows high (the block stays in L2), and a register-tiled
// micro-kernel accumulates an MR x NR tile of C over KC in registers. The tile depends on the
// clone of PARTONFIT_CLONES that runs, and so does the vector type, which is one register of the
// clone (a wider generic vector would live in memory, not in registers): 12 x 32 on AVX-512
// (24 of its 32 registers accumulate), 6 x 16 on AVX2 and 6 x 8 on the baseline (SSE; 12 of 16).
#ifdef PARTONFIT_NO_CBLAS
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "blas.h"
#include "simd.h"
#include "vectors.h"

// Multiply-adds as fused multiply-adds where the target has them. The 16-float vector type is
// only passed between always-inlined functions, so its ABI (-Wpsabi) never matters.
#pragma GCC optimize("fp-contract=fast")
#pragma GCC diagnostic ignored "-Wpsabi"

namespace partonfit {

namespace {

template <typename V>
PARTONFIT_INLINE V splat(float x) {
  return V{} + x;
}

template <typename V>
PARTONFIT_INLINE float lane_sum(V v) {
  float sum = 0.0f;
  for (int64_t l = 0; l < kWidth<V>; ++l) sum += v[l];
  return sum;
}

// The register tile of the micro-kernel: `rows` rows of C by `columns` (NR), and the vector
// path it is for.
struct Tile {
  VectorPath path;
  int rows;
  int64_t columns;
};

Tile gemm_tile() {
  const VectorPath path = vector_path();
  switch (path) {
    case VectorPath::kAvx512:
      return {path, 12, 32};
    case VectorPath::kAvx2:
      return {path, 6, 16};
    default:
      return {path, 6, 8};
  }
}

// Inner dimension of a packed block: an NR-wide sliver of op(B), 32 or 64 floats x 256, fills
// 32 or 64 KB (L1), and an MR-high panel of op(A) 3--12 KB.
constexpr int64_t kBlockInner = 256;
// Rows of op(A) packed at once (rounded down to the tile's rows): 144 x 256 floats, 144 KB (L2).
constexpr int64_t kBlockRows = 144;
// Columns of op(B) packed at once: 2048 x 256 floats, 2 MB (L3).
constexpr int64_t kBlockColumns = 2048;

// A buffer of the calling thread for at least `floats` floats, aligned for the vectors.
float* packing_buffer(std::vector<Lanes16>& buffer, int64_t floats) {
  const auto vectors = static_cast<size_t>((floats + kWidth<Lanes16> - 1) / kWidth<Lanes16>);
  if (buffer.size() < vectors) buffer.resize(vectors);
  return reinterpret_cast<float*>(buffer.data());
}

// Rows [0, rows) x inner [0, depth) of op(A), from `a` at op(A)[0, 0] (op(A)[i, p] =
// a[p * lda + i] transposed, a[i * lda + p] not), as panels of `mr` rows: panel q holds, for
// each p, rows q * mr ... q * mr + mr - 1, zero past `rows`.
void pack_a(const float* a, int64_t lda, bool transpose, int64_t rows, int64_t depth, int mr,
            float* packed) {
  for (int64_t i = 0; i < rows; i += mr) {
    const int64_t height = std::min<int64_t>(mr, rows - i);
    float* panel = packed + i * depth;
    if (transpose) {
      for (int64_t p = 0; p < depth; ++p) {
        const float* source = a + p * lda + i;
        float* target = panel + p * mr;
        for (int64_t r = 0; r < height; ++r) target[r] = source[r];
        for (int64_t r = height; r < mr; ++r) target[r] = 0.0f;
      }
    } else {
      for (int64_t r = 0; r < height; ++r) {
        const float* source = a + (i + r) * lda;
        for (int64_t p = 0; p < depth; ++p) panel[p * mr + r] = source[p];
      }
      for (int64_t r = height; r < mr; ++r) {
        for (int64_t p = 0; p < depth; ++p) panel[p * mr + r] = 0.0f;
      }
    }
  }
}

// Inner [0, depth) x columns [0, columns) of op(B), from `b` at op(B)[0, 0] (op(B)[p, j] =
// b[j * ldb + p] transposed, b[p * ldb + j] not), as slivers of `nr` columns: sliver s holds,
// for each p, columns s * nr ... s * nr + nr - 1, zero past `columns`.
void pack_b(const float* b, int64_t ldb, bool transpose, int64_t depth, int64_t columns,
            int64_t nr, float* packed) {
  for (int64_t j = 0; j < columns; j += nr) {
    const int64_t width = std::min(nr, columns - j);
    float* sliver = packed + j * depth;
    if (transpose) {
      for (int64_t c = 0; c < width; ++c) {
        const float* source = b + (j + c) * ldb;
        for (int64_t p = 0; p < depth; ++p) sliver[p * nr + c] = source[p];
      }
      for (int64_t c = width; c < nr; ++c) {
        for (int64_t p = 0; p < depth; ++p) sliver[p * nr + c] = 0.0f;
      }
    } else {
      for (int64_t p = 0; p < depth; ++p) {
        std::memcpy(sliver + p * nr, b + p * ldb + j, width * sizeof(float));
        std::fill(sliver + p * nr + width, sliver + (p + 1) * nr, 0.0f);
      }
    }
  }
}

// C[0:rows, 0:columns] (=, or += when `accumulate`) the product of an MR-high panel of op(A) and
// an NR-wide sliver of op(B) over `depth`; the kRows x kVectors accumulators stay in registers.
template <typename V, int kRows, int kVectors>
PARTONFIT_INLINE void micro_kernel(const float* a, const float* b, int64_t depth, float* c,
                                   int64_t ldc, int64_t rows, int64_t columns, bool accumulate) {
  constexpr int64_t kLanes = kWidth<V>;
  constexpr int64_t kColumns = kVectors * kLanes;
  V acc[kRows][kVectors] = {};
#pragma GCC unroll 4
  for (int64_t p = 0; p < depth; ++p) {
    V row[kVectors];
    for (int v = 0; v < kVectors; ++v) row[v] = load<V>(b + p * kColumns + v * kLanes);
    for (int r = 0; r < kRows; ++r) {
      const V scale = splat<V>(a[p * kRows + r]);
      for (int v = 0; v < kVectors; ++v) acc[r][v] += scale * row[v];
    }
  }
  if (rows == kRows && columns == kColumns) {
    for (int r = 0; r < kRows; ++r) {
      for (int v = 0; v < kVectors; ++v) {
        float* target = c + r * ldc + v * kLanes;
        store<V>(target, accumulate ? acc[r][v] + load<V>(target) : acc[r][v]);
      }
    }
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    float values[kColumns];
    std::memcpy(values, acc[r], sizeof values);
    float* target = c + r * ldc;
    for (int64_t j = 0; j < columns; ++j) target[j] = accumulate ? target[j] + values[j] : values[j];
  }
}

// C (rows, columns) (=, or += when `accumulate`) a packed block of op(A) times a packed block of
// op(B): every sliver of B is used for all row panels while it is in L1.
template <typename V, int kRows, int kVectors>
PARTONFIT_INLINE void block_product(const float* packed_a, const float* packed_b, int64_t rows,
                                    int64_t columns, int64_t depth, float* c, int64_t ldc,
                                    bool accumulate) {
  constexpr int64_t kColumns = kVectors * kWidth<V>;
  for (int64_t j = 0; j < columns; j += kColumns) {
    for (int64_t i = 0; i < rows; i += kRows) {
      micro_kernel<V, kRows, kVectors>(packed_a + i * depth, packed_b + j * depth, depth,
                                       c + i * ldc + j, ldc, std::min<int64_t>(kRows, rows - i),
                                       std::min(kColumns, columns - j), accumulate);
    }
  }
}

// Every clone holds the three tiles; gemm_tile() picks the one of the clone that runs.
PARTONFIT_CLONES void block_product_dispatch(VectorPath path, const float* packed_a,
                                             const float* packed_b, int64_t rows, int64_t columns,
                                             int64_t depth, float* c, int64_t ldc,
                                             bool accumulate) {
  switch (path) {
    case VectorPath::kAvx512:
      return block_product<Lanes16, 12, 2>(packed_a, packed_b, rows, columns, depth, c, ldc,
                                           accumulate);
    case VectorPath::kAvx2:
      return block_product<Lanes8, 6, 2>(packed_a, packed_b, rows, columns, depth, c, ldc,
                                         accumulate);
    default:
      return block_product<Lanes4, 6, 2>(packed_a, packed_b, rows, columns, depth, c, ldc,
                                         accumulate);
  }
}

// y[i * incy] = A[i, :] . x for rows [0, m) of A (m, n), x contiguous: four rows at a time, each
// vector of x loaded once for the four.
template <typename V>
PARTONFIT_INLINE void gemv_rows(const float* a, int64_t lda, const float* x, float* y,
                                int64_t incy, int64_t m, int64_t n) {
  constexpr int64_t kLanes = kWidth<V>;
  const int64_t full = n - n % kLanes;
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    V acc[4] = {};
    for (int64_t j = 0; j < full; j += kLanes) {
      const V values = load<V>(x + j);
      for (int r = 0; r < 4; ++r) acc[r] += load<V>(a + (i + r) * lda + j) * values;
    }
    for (int r = 0; r < 4; ++r) {
      float sum = lane_sum(acc[r]);
      for (int64_t j = full; j < n; ++j) sum += a[(i + r) * lda + j] * x[j];
      y[(i + r) * incy] = sum;
    }
  }
  for (; i < m; ++i) {
    V acc = {};
    for (int64_t j = 0; j < full; j += kLanes) acc += load<V>(a + i * lda + j) * load<V>(x + j);
    float sum = lane_sum(acc);
    for (int64_t j = full; j < n; ++j) sum += a[i * lda + j] * x[j];
    y[i * incy] = sum;
  }
}

// acc[0:width] = sum over rows i of x[i * incx] * A[i, 0:width] for A (m, width) with leading
// dimension lda: each row of A streamed once, four rows per pass over the sums in `acc` (in L1).
template <typename V>
PARTONFIT_INLINE void gemv_columns(const float* a, int64_t lda, const float* x, int64_t incx,
                                   float* acc, int64_t m, int64_t width) {
  constexpr int64_t kLanes = kWidth<V>;
  const int64_t full = width - width % kLanes;
  std::fill(acc, acc + width, 0.0f);
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    const float* rows[4] = {a + i * lda, a + (i + 1) * lda, a + (i + 2) * lda, a + (i + 3) * lda};
    const float scale[4] = {x[i * incx], x[(i + 1) * incx], x[(i + 2) * incx], x[(i + 3) * incx]};
    for (int64_t j = 0; j < full; j += kLanes) {
      V sum = load<V>(acc + j);
      for (int r = 0; r < 4; ++r) sum += splat<V>(scale[r]) * load<V>(rows[r] + j);
      store<V>(acc + j, sum);
    }
    for (int64_t j = full; j < width; ++j) {
      for (int r = 0; r < 4; ++r) acc[j] += scale[r] * rows[r][j];
    }
  }
  for (; i < m; ++i) {
    const float* row = a + i * lda;
    const float scale = x[i * incx];
    for (int64_t j = 0; j < full; j += kLanes) {
      store<V>(acc + j, load<V>(acc + j) + splat<V>(scale) * load<V>(row + j));
    }
    for (int64_t j = full; j < width; ++j) acc[j] += scale * row[j];
  }
}

// gemv_rows and gemv_columns with the vectors of the clone that runs.
PARTONFIT_CLONES void gemv_rows_dispatch(VectorPath path, const float* a, int64_t lda,
                                         const float* x, float* y, int64_t incy, int64_t m,
                                         int64_t n) {
  switch (path) {
    case VectorPath::kAvx512:
      return gemv_rows<Lanes16>(a, lda, x, y, incy, m, n);
    case VectorPath::kAvx2:
      return gemv_rows<Lanes8>(a, lda, x, y, incy, m, n);
    default:
      return gemv_rows<Lanes4>(a, lda, x, y, incy, m, n);
  }
}

PARTONFIT_CLONES void gemv_columns_dispatch(VectorPath path, const float* a, int64_t lda,
                                            const float* x, int64_t incx, float* acc, int64_t m,
                                            int64_t width) {
  switch (path) {
    case VectorPath::kAvx512:
      return gemv_columns<Lanes16>(a, lda, x, incx, acc, m, width);
    case VectorPath::kAvx2:
      return gemv_columns<Lanes8>(a, lda, x, incx, acc, m, width);
    default:
      return gemv_columns<Lanes4>(a, lda, x, incx, acc, m, width);
  }
}

// Columns of A whose sums gemv_columns keeps at once (16 KB).
constexpr int64_t kGemvColumns = 4096;

}  // namespace

void sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const float* a,
           int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
    return;
  }
  static const Tile tile = gemm_tile();
  const int64_t nr = tile.columns;
  const int64_t block_rows = kBlockRows / tile.rows * tile.rows;
  thread_local std::vector<Lanes16> a_buffer;
  thread_local std::vector<Lanes16> b_buffer;
  float* packed_a = packing_buffer(a_buffer, block_rows * kBlockInner);
  float* packed_b = packing_buffer(b_buffer, (kBlockColumns + nr) * kBlockInner);
  for (int64_t j = 0; j < n; j += kBlockColumns) {
    const int64_t columns = std::min(kBlockColumns, n - j);
    for (int64_t p = 0; p < k; p += kBlockInner) {
      const int64_t depth = std::min(kBlockInner, k - p);
      pack_b(transpose_b ? b + j * ldb + p : b + p * ldb + j, ldb, transpose_b, depth, columns,
             nr, packed_b);
      for (int64_t i = 0; i < m; i += block_rows) {
        const int64_t rows = std::min(block_rows, m - i);
        pack_a(transpose_a ? a + p * lda + i : a + i * lda + p, lda, transpose_a, rows, depth,
               tile.rows, packed_a);
        block_product_dispatch(tile.path, packed_a, packed_b, rows, columns, depth, c + i * ldc + j,
                               ldc, p > 0);
      }
    }
  }
}

void sgemv(bool transpose, int64_t m, int64_t n, const float* a, int64_t lda, const float* x,
           int64_t incx, float* y, int64_t incy) {
  if (!transpose) {
    if (m <= 0) return;
    const float* dense = x;
    thread_local std::vector<float> gathered;
    if (incx != 1) {
      gathered.resize(std::max<int64_t>(n, 0));
      for (int64_t j = 0; j < n; ++j) gathered[j] = x[j * incx];
      dense = gathered.data();
    }
    gemv_rows_dispatch(vector_path(), a, lda, dense, y, incy, m, std::max<int64_t>(n, 0));
    return;
  }
  thread_local std::vector<Lanes16> sums;
  float* acc = packing_buffer(sums, kGemvColumns);
  for (int64_t j = 0; j < n; j += kGemvColumns) {
    const int64_t width = std::min(kGemvColumns, n - j);
    gemv_columns_dispatch(vector_path(), a + j, lda, x, incx, acc, std::max<int64_t>(m, 0),
                          width);
    for (int64_t c = 0; c < width; ++c) y[(j + c) * incy] = acc[c];
  }
}

BlasInfo configure_blas() {
  BlasInfo info;
  info.library = kOwnKernels;
  info.threads = 1;
  return info;
}

}  // namespace partonfit

#endif  // PARTONFIT_NO_CBLAS
