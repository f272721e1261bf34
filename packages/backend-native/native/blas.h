// The CBLAS the addon was linked against: single-precision GEMM, and what the library reports
// about itself (OpenBLAS's core type and thread count when it is OpenBLAS).
#pragma once

#include <cstdint>
#include <string>

namespace partonfit {

// C = op(A) @ op(B), row-major, op(A) (m, k), op(B) (k, n), C (m, n) with leading dimension ldc.
void sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const float* a,
           int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc);

// y = op(A) @ x, row-major A (m, n) with leading dimension lda, op transposing when the flag is
// set; x and y with strides incx and incy.
void sgemv(bool transpose, int64_t m, int64_t n, const float* a, int64_t lda, const float* x,
           int64_t incx, float* y, int64_t incy);

struct BlasInfo {
  std::string library;   // "OpenBLAS" or "CBLAS"
  std::string core;      // OpenBLAS's kernel ("SkylakeX", "Haswell", "Prescott", ...) or ""
  std::string config;    // OpenBLAS's build configuration, or ""
  int threads = 0;       // BLAS threads per call after set-up (0 if unknown)
};

// Makes the BLAS run each call on the calling thread (the addon splits products across its own
// threads) and reports what it found. Call once, before the first sgemm.
BlasInfo configure_blas();

}  // namespace partonfit
