// Batched float32 matrix products over the system CBLAS, split across the thread pool.
#pragma once

#include <cstdint>

#include "elementwise.h"

namespace partonfit {

// out[i] = op(a[a_index[i]]) @ op(b[b_index[i]]) for i in [0, batch), row-major, where op
// transposes when the flag is set. op(a) is (m, k), op(b) is (k, n), out[i] is (m, n).
struct MatMulProblem {
  const float* a = nullptr;
  const float* b = nullptr;
  float* out = nullptr;
  int64_t batch = 1;
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  bool transpose_a = false;
  bool transpose_b = false;
  // Which stored matrix each output batch entry reads; null means entry i reads matrix i (or
  // matrix 0 when the operand holds only one).
  const int32_t* a_index = nullptr;
  const int32_t* b_index = nullptr;
  // How many matrices a and b hold (1 means shared by every batch entry).
  int64_t a_matrices = 1;
  int64_t b_matrices = 1;
};

// Optional work applied to each block of the product while it is still in cache: a bias that
// varies along the output columns (and optionally the batch), then an activation.
struct MatMulEpilogue {
  const float* bias = nullptr;        // null: no bias
  const int32_t* bias_index = nullptr;  // bias row used by each batch entry; null: row 0
  int64_t bias_column_stride = 1;     // 1: one bias per output column (rows of n); 0: scalars
  UnaryOp activation = UnaryOp::kIdentity;
  float alpha = 0.0f;                 // leaky-relu slope
};

void matmul(const MatMulProblem& problem, const MatMulEpilogue& epilogue);

// C (m, n, leading dimension ldc) = op(A) @ op(B) on the calling thread, with the kernel each
// block of matmul() would use for that shape; A and B with leading dimensions lda and ldb. The
// call may overwrite `writable` columns of each row of C (n <= writable <= ldc): the columns
// past n may then hold values that are not part of the product, and with writable == ldc the
// whole (m, ldc) block is the call's.
void matmul_serial(bool transpose_a, bool transpose_b, const float* a, int64_t lda,
                   const float* b, int64_t ldb, float* out, int64_t ldc, int64_t writable,
                   int64_t m, int64_t n, int64_t k);

}  // namespace partonfit
