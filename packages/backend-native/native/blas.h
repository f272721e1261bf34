// The BLAS the addon runs its general products on: the CBLAS it was linked against (blas.cc), or
// its own kernels when built without one (own_blas.cc, PARTONFIT_NO_CBLAS); single-precision GEMM
// and GEMV, and what the library reports about itself (OpenBLAS's core type and thread count when
// it is OpenBLAS).
#pragma once

#include <cstdint>
#include <string>

namespace partonfit {

// C = op(A) @ op(B), row-major, op(A) (m, k), op(B) (k, n), C (m, n) with leading dimension ldc;
// A stored (m, k) with leading dimension lda >= k, or (k, m) with lda >= m when transposed, and
// likewise B (k, n) with ldb >= n, or (n, k) with ldb >= k. k = 0 gives zeros.
void sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const float* a,
           int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc);

// y = op(A) @ x, row-major A (m, n) with leading dimension lda, op transposing when the flag is
// set; x and y with strides incx, incy >= 1.
void sgemv(bool transpose, int64_t m, int64_t n, const float* a, int64_t lda, const float* x,
           int64_t incx, float* y, int64_t incy);

// BlasInfo::library of a build without a CBLAS.
inline constexpr const char* kOwnKernels = "none (partonfit's own kernels)";

struct BlasInfo {
  std::string library;   // "OpenBLAS", "CBLAS" or kOwnKernels
  std::string core;      // OpenBLAS's kernel ("SkylakeX", "Haswell", "Prescott", ...) or ""
  std::string config;    // OpenBLAS's build configuration, or ""
  int threads = 0;       // BLAS threads per call after set-up (0 if unknown)
};

// Makes the BLAS run each call on the calling thread (the addon splits products across its own
// threads) and reports what it found. Call once, before the first sgemm.
BlasInfo configure_blas();

}  // namespace partonfit
