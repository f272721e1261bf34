// Matrix products of skewed shapes, where a general BLAS spends most of its time packing and in
// edge kernels: the layers of a small dense network for many replicas, (points, in) @ (in, out)
// with out <= 64, their weight gradients (points, in)^T @ (points, out), and a few replicas
// contracted with a large FK table or its transpose. Vectorized for AVX-512 / AVX2 / SSE by
// function multi-versioning.
#pragma once

#include <cstdint>

namespace partonfit {

// Widest output block (columns) the narrow and long kernels accumulate in registers.
constexpr int64_t kSmallGemmMaxWidth = 64;

// Whether gemm_narrow suits an output width n and inner dimension k (n <= 64, op(B) small
// enough to stay in the core's cache).
bool gemm_narrow_suits(int64_t n, int64_t k);

// C (rows, n) = A (rows, k) @ op(B), A row-major with leading dimension lda, op(B) (k, n) from B
// stored (k, n) (transpose_b false) or (n, k) (transpose_b true) with leading dimension ldb,
// packed once; for shapes gemm_narrow_suits.
//
// `writable` (n <= writable <= ldc) is how many columns of each row of C the call may overwrite.
// Rows are stored as whole 16-float vectors wherever that stays within them, which is much
// cheaper than cutting each row's last vector at n: the columns past n then get values that are
// not part of the result. With writable == ldc a row's last vector may also run into the rows
// after it, which the call stores later, but never past its last row.
void gemm_narrow(const float* a, int64_t lda, const float* b, int64_t ldb, bool transpose_b,
                 float* c, int64_t ldc, int64_t writable, int64_t rows, int64_t n, int64_t k);

// Whether gemm_long suits an (m, n) result over an inner dimension k.
bool gemm_long_suits(int64_t m, int64_t n, int64_t k);

// C (m, n) = op(A) @ B as a sum of k outer products, op(A)[i, p] = a[i * a_row_stride +
// p * a_inner_stride] (A stored (m, k): strides (lda, 1); A stored (k, m): (1, lda)), B stored
// (k, n) with leading dimension ldb and read in place, in panels of 64 columns: for at most 64
// rows over any k, e.g. weight gradients (points, in)^T @ (points, out) or a few replicas
// contracted with an FK table.
void gemm_long(const float* a, int64_t a_row_stride, int64_t a_inner_stride, const float* b,
               int64_t ldb, float* c, int64_t ldc, int64_t m, int64_t n, int64_t k);

// Most rows gemm_wide computes per pass over B.
constexpr int64_t kWideMaxRows = 8;

// C (m, n) = A (m, k) @ B (k, n), both row-major with leading dimensions lda, ldb, streaming B
// once per kWideMaxRows rows: for few rows and a wide B, e.g. a few replicas' gradients times
// the transposed FK table.
void gemm_wide(const float* a, int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc,
               int64_t m, int64_t n, int64_t k);

}  // namespace partonfit
