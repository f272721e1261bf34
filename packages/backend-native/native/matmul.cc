#include "matmul.h"

#include <algorithm>
#include <vector>

#include "blas.h"
#include "small_gemm.h"
#include "thread_pool.h"

namespace partonfit {

namespace {

// Products below this many multiply-adds run on the calling thread.
constexpr int64_t kParallelMultiplyAdds = 1 << 21;
// Smallest block of rows (or columns) one thread multiplies when a product is split.
constexpr int64_t kMinBlock = 32;
// Largest inner dimension of gemm_wide (beyond it the BLAS's packing pays off).
constexpr int64_t kWideMaxInner = 256;
// Smallest inner dimension split across threads (each share at least a quarter of it).
constexpr int64_t kMinInnerSplit = 1024;

struct Block {
  int64_t entry;  // batch entry
  int64_t first;  // first row (or column) of the block
  int64_t last;   // one past the last
};

void apply_epilogue(const MatMulEpilogue& epilogue, int64_t entry, int64_t n, float* out,
                    int64_t rows, int64_t columns, int64_t ldc, int64_t first_column) {
  if (epilogue.bias != nullptr) {
    const int64_t bias_row = epilogue.bias_index != nullptr ? epilogue.bias_index[entry] : 0;
    const int64_t step = epilogue.bias_column_stride;
    const float* bias = epilogue.bias + bias_row * (step == 0 ? 1 : n) + first_column * step;
    for (int64_t i = 0; i < rows; ++i) {
      float* row = out + i * ldc;
      if (step == 0) {
        const float value = bias[0];
        for (int64_t j = 0; j < columns; ++j) row[j] += value;
      } else {
        for (int64_t j = 0; j < columns; ++j) row[j] += bias[j];
      }
    }
  }
  if (epilogue.activation != UnaryOp::kIdentity) {
    for (int64_t i = 0; i < rows; ++i) {
      float* row = out + i * ldc;
      unary_serial(epilogue.activation, epilogue.alpha, row, row, columns);
    }
  }
}

// C (rows, columns, leading dimension ldc) = op(A) @ op(B) over an inner dimension k, with the
// kernel that suits the shape: the addon's narrow kernels or the BLAS. The call may overwrite
// `writable` columns of each row of C (see gemm_narrow).
void product(const MatMulProblem& p, const float* a, int64_t lda, const float* b, int64_t ldb,
             float* out, int64_t ldc, int64_t writable, int64_t rows, int64_t columns,
             int64_t k) {
  if (k == 0) {
    // An empty sum; the output array may hold old values (the backend recycles buffers).
    for (int64_t i = 0; i < rows; ++i) std::fill(out + i * ldc, out + i * ldc + columns, 0.0f);
  } else if (columns == 1) {
    // A matrix times a vector (one replica's gradient through a large FK table): streamed once.
    const int64_t incx = p.transpose_b ? 1 : ldb;
    if (p.transpose_a) {
      sgemv(true, k, rows, a, lda, b, incx, out, ldc);
    } else {
      sgemv(false, rows, k, a, lda, b, incx, out, ldc);
    }
  } else if (!p.transpose_a && gemm_narrow_suits(columns, k)) {
    gemm_narrow(a, lda, b, ldb, p.transpose_b, out, ldc, writable, rows, columns, k);
  } else if (!p.transpose_b && gemm_long_suits(rows, columns, k)) {
    gemm_long(a, p.transpose_a ? 1 : lda, p.transpose_a ? lda : 1, b, ldb, out, ldc, rows, columns,
              k);
  } else if (!p.transpose_a && !p.transpose_b && rows <= kWideMaxRows &&
             k <= kWideMaxInner) {
    gemm_wide(a, lda, b, ldb, out, ldc, rows, columns, k);
  } else {
    sgemm(p.transpose_a, p.transpose_b, rows, columns, k, a, lda, b, ldb, out, ldc);
  }
}

int64_t a_matrix_of(const MatMulProblem& p, int64_t entry) {
  return p.a_index != nullptr ? p.a_index[entry] : p.a_matrices == 1 ? 0 : entry;
}

int64_t b_matrix_of(const MatMulProblem& p, int64_t entry) {
  return p.b_index != nullptr ? p.b_index[entry] : p.b_matrices == 1 ? 0 : entry;
}

// One block of one batch entry: rows [first, last) of the product when split_rows, else
// columns [first, last).
void multiply_block(const MatMulProblem& p, const MatMulEpilogue& epilogue, const Block& block,
                    bool split_rows) {
  const float* a = p.a + a_matrix_of(p, block.entry) * p.m * p.k;
  const float* b = p.b + b_matrix_of(p, block.entry) * p.k * p.n;
  float* out = p.out + block.entry * p.m * p.n;
  const int64_t lda = p.transpose_a ? p.m : p.k;
  const int64_t ldb = p.transpose_b ? p.k : p.n;
  int64_t rows = p.m, columns = p.n;
  if (split_rows) {
    a += p.transpose_a ? block.first : block.first * lda;
    out += block.first * p.n;
    rows = block.last - block.first;
  } else {
    b += p.transpose_b ? block.first * ldb : block.first;
    out += block.first;
    columns = block.last - block.first;
  }
  // a block of rows owns whole rows of the output; a block of columns only its own columns
  product(p, a, lda, b, ldb, out, p.n, split_rows ? p.n : columns, rows, columns, p.k);
  apply_epilogue(epilogue, block.entry, p.n, out, rows, columns, p.n,
                 split_rows ? 0 : block.first);
}

// One batch entry whose inner dimension dwarfs its output (an FK contraction to a few data
// points): the threads take shares of the inner dimension, each streaming its share of both
// operands once, and the partial products are added. Splitting rows or columns instead would
// make every thread read all of the long operand.
void multiply_split_inner(const MatMulProblem& p, const MatMulEpilogue& epilogue, int64_t entry,
                          int64_t parts) {
  const float* a = p.a + a_matrix_of(p, entry) * p.m * p.k;
  const float* b = p.b + b_matrix_of(p, entry) * p.k * p.n;
  float* out = p.out + entry * p.m * p.n;
  const int64_t lda = p.transpose_a ? p.m : p.k;
  const int64_t ldb = p.transpose_b ? p.k : p.n;
  const int64_t size = p.m * p.n;
  std::vector<float> partials((parts - 1) * size);
  ThreadPool::instance().run_tasks(parts, [&](int64_t part) {
    const int64_t k0 = p.k * part / parts;
    const int64_t k1 = p.k * (part + 1) / parts;
    const float* a_share = a + (p.transpose_a ? k0 * lda : k0);
    const float* b_share = b + (p.transpose_b ? k0 : k0 * ldb);
    float* target = part == 0 ? out : partials.data() + (part - 1) * size;
    product(p, a_share, lda, b_share, ldb, target, p.n, p.n, p.m, p.n, k1 - k0);
  });
  for (int64_t part = 1; part < parts; ++part) {
    const float* partial = partials.data() + (part - 1) * size;
    for (int64_t i = 0; i < size; ++i) out[i] += partial[i];
  }
  apply_epilogue(epilogue, entry, p.n, out, p.m, p.n, p.n, 0);
}

}  // namespace

void matmul_serial(bool transpose_a, bool transpose_b, const float* a, int64_t lda,
                   const float* b, int64_t ldb, float* out, int64_t ldc, int64_t writable,
                   int64_t m, int64_t n, int64_t k) {
  MatMulProblem p;
  p.transpose_a = transpose_a;
  p.transpose_b = transpose_b;
  product(p, a, lda, b, ldb, out, ldc, writable, m, n, k);
}

void matmul(const MatMulProblem& problem, const MatMulEpilogue& epilogue) {
  MatMulProblem p = problem;
  if (p.batch == 0 || p.m == 0 || p.n == 0) return;
  // A shared right operand and a stacked left one without transpose: one tall product.
  if (p.b_matrices == 1 && p.a_matrices == p.batch && !p.transpose_a && p.a_index == nullptr &&
      p.batch > 1 && epilogue.bias_index == nullptr) {
    p.m *= p.batch;
    p.batch = 1;
  }
  ThreadPool& pool = ThreadPool::instance();
  const int threads = pool.threads();
  const int64_t work = p.batch * p.m * p.n * std::max<int64_t>(p.k, 1);
  if (work >= kParallelMultiplyAdds && threads > 1 && p.batch < threads &&
      p.k >= kMinInnerSplit && p.k >= 4 * std::max(p.m, p.n)) {
    const int64_t parts = std::min<int64_t>(2 * threads, p.k / (kMinInnerSplit / 4));
    for (int64_t entry = 0; entry < p.batch; ++entry) {
      multiply_split_inner(p, epilogue, entry, parts);
    }
    return;
  }
  // Split each product into blocks when there are too few batch entries to share out evenly.
  const bool split_rows = p.m >= p.n;
  const int64_t extent = split_rows ? p.m : p.n;
  int64_t parts = 1;
  if (work >= kParallelMultiplyAdds && threads > 1 && p.batch < 2 * threads) {
    const int64_t wanted = (2 * threads + p.batch - 1) / p.batch;
    parts = std::max<int64_t>(1, std::min(wanted, extent / kMinBlock));
  }
  const int64_t blocks = p.batch * parts;
  auto run_block = [&](int64_t index) {
    const int64_t entry = index / parts;
    const int64_t part = index % parts;
    multiply_block(p, epilogue,
                   Block{entry, extent * part / parts, extent * (part + 1) / parts}, split_rows);
  };
  if (work < kParallelMultiplyAdds || blocks == 1) {
    for (int64_t i = 0; i < blocks; ++i) run_block(i);
  } else {
    pool.run_tasks(blocks, run_block);
  }
}

}  // namespace partonfit
