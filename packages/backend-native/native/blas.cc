// The BLAS functions over the system CBLAS; own_blas.cc replaces them when the addon is built
// without one (PARTONFIT_NO_CBLAS).
#ifndef PARTONFIT_NO_CBLAS
#include "blas.h"

#ifdef PARTONFIT_CBLAS_HEADER
// -DPARTONFIT_CBLAS_HEADER=mkl_cblas.h (a bare name survives every layer of shell quoting).
#define PARTONFIT_STRING(name) #name
#define PARTONFIT_HEADER(name) PARTONFIT_STRING(name)
#include PARTONFIT_HEADER(PARTONFIT_CBLAS_HEADER)
#else
#include <cblas.h>
#endif

// OpenBLAS's own interface, present only when the CBLAS is OpenBLAS: weak references resolve to
// null with any other library.
extern "C" {
void openblas_set_num_threads(int threads) __attribute__((weak));
int openblas_get_num_threads(void) __attribute__((weak));
char* openblas_get_corename(void) __attribute__((weak));
char* openblas_get_config(void) __attribute__((weak));
}

namespace partonfit {

void sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const float* a,
           int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans,
              transpose_b ? CblasTrans : CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb), 0.0f,
              c, static_cast<int>(ldc));
}

void sgemv(bool transpose, int64_t m, int64_t n, const float* a, int64_t lda, const float* x,
           int64_t incx, float* y, int64_t incy) {
  cblas_sgemv(CblasRowMajor, transpose ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), 1.0f, a, static_cast<int>(lda), x, static_cast<int>(incx), 0.0f,
              y, static_cast<int>(incy));
}

BlasInfo configure_blas() {
  BlasInfo info;
  if (openblas_set_num_threads == nullptr) {
    info.library = "CBLAS";
    return info;
  }
  info.library = "OpenBLAS";
  openblas_set_num_threads(1);
  if (openblas_get_num_threads != nullptr) info.threads = openblas_get_num_threads();
  if (openblas_get_corename != nullptr) info.core = openblas_get_corename();
  if (openblas_get_config != nullptr) info.config = openblas_get_config();
  return info;
}

}  // namespace partonfit

#endif  // PARTONFIT_NO_CBLAS
