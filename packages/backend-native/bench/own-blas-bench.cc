// GFLOP/s of the addon's own sgemm/sgemv (native/own_blas.cc) against the system CBLAS, one
// thread each, after checking the own kernels against a double-precision loop for every
// transpose and leading dimension. From packages/backend-native:
//
//   g++ -std=c++17 -O3 -DPARTONFIT_NO_CBLAS -Inative bench/own-blas-bench.cc native/own_blas.cc \
//     native/simd.cc $(pkg-config --cflags --libs openblas) -o /tmp/own-blas-bench
//   /tmp/own-blas-bench
//
// Add -DPARTONFIT_ISA_AVX2 or -DPARTONFIT_ISA_BASELINE for the narrower paths.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "blas.h"
#include "simd.h"

extern "C" void openblas_set_num_threads(int threads) __attribute__((weak));

namespace {

std::vector<float> random_values(int64_t size, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(size);
  for (float& value : values) value = uniform(engine);
  return values;
}

// The largest |own - exact| / (k * 2^-23 * sum |terms|) over C: at most 1 passes.
double check_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t pad) {
  const int64_t lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
  const auto a = random_values((ta ? k : m) * lda, 1);
  const auto b = random_values((tb ? n : k) * ldb, 2);
  std::vector<float> c(m * ldc, 7.0f);
  partonfit::sgemm(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, c.data(), ldc);
  double worst = 0;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double exact = 0, scale = 0;
      for (int64_t p = 0; p < k; ++p) {
        const double term = double(ta ? a[p * lda + i] : a[i * lda + p]) *
                            double(tb ? b[j * ldb + p] : b[p * ldb + j]);
        exact += term;
        scale += std::fabs(term);
      }
      const double bound = std::max<double>(k, 1) * std::ldexp(1.0, -23) * scale + 1e-30;
      worst = std::max(worst, std::fabs(c[i * ldc + j] - exact) / bound);
    }
    for (int64_t j = n; j < ldc; ++j) {
      if (c[i * ldc + j] != 7.0f) return INFINITY;  // wrote past the row
    }
  }
  return worst;
}

// The same for y = op(A) x, A (m, n) with leading dimension n + pad, strides incx and incy.
double check_gemv(bool t, int64_t m, int64_t n, int64_t pad, int64_t incx, int64_t incy) {
  const int64_t lda = n + pad, rows = t ? n : m, inner = t ? m : n;
  const auto a = random_values(m * lda, 7);
  const auto x = random_values(inner * incx, 8);
  std::vector<float> y(rows * incy, 7.0f);
  partonfit::sgemv(t, m, n, a.data(), lda, x.data(), incx, y.data(), incy);
  double worst = 0;
  for (int64_t i = 0; i < rows; ++i) {
    double exact = 0, scale = 0;
    for (int64_t p = 0; p < inner; ++p) {
      const double term = double(t ? a[p * lda + i] : a[i * lda + p]) * double(x[p * incx]);
      exact += term;
      scale += std::fabs(term);
    }
    const double bound = std::max<double>(inner, 1) * std::ldexp(1.0, -23) * scale + 1e-30;
    worst = std::max(worst, std::fabs(y[i * incy] - exact) / bound);
    for (int64_t s = 1; s < incy; ++s) {
      if (y[i * incy + s] != 7.0f) return INFINITY;  // wrote between the strided elements
    }
  }
  return worst;
}

template <class F>
double seconds_per_call(F&& call) {
  call();
  int reps = 1;
  for (;;) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) call();
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > 0.3) return elapsed / reps;
    reps *= 2;
  }
}

void bench_gemm(const char* name, bool ta, bool tb, int64_t m, int64_t n, int64_t k) {
  const int64_t lda = ta ? m : k, ldb = tb ? k : n;
  const auto a = random_values(m * k, 3);
  const auto b = random_values(k * n, 4);
  std::vector<float> c(m * n);
  const double flops = 2.0 * m * n * k;
  double own = 1e30, blas = 1e30;
  for (int round = 0; round < 3; ++round) {
    own = std::min(own, seconds_per_call([&] {
      partonfit::sgemm(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, c.data(), n);
    }));
    blas = std::min(blas, seconds_per_call([&] {
      cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                  m, n, k, 1.0f, a.data(), lda, b.data(), ldb, 0.0f, c.data(), n);
    }));
  }
  std::printf("| %-28s | %7.1f | %7.1f | %4.0f %% |\n", name, flops / own * 1e-9,
              flops / blas * 1e-9, 100 * blas / own);
}

void bench_gemv(const char* name, bool t, int64_t m, int64_t n) {
  const auto a = random_values(m * n, 5);
  const auto x = random_values(t ? m : n, 6);
  std::vector<float> y(t ? n : m);
  const double flops = 2.0 * m * n;
  double own = 1e30, blas = 1e30;
  for (int round = 0; round < 3; ++round) {
    own = std::min(own, seconds_per_call([&] {
      partonfit::sgemv(t, m, n, a.data(), n, x.data(), 1, y.data(), 1);
    }));
    blas = std::min(blas, seconds_per_call([&] {
      cblas_sgemv(CblasRowMajor, t ? CblasTrans : CblasNoTrans, m, n, 1.0f, a.data(), n, x.data(),
                  1, 0.0f, y.data(), 1);
    }));
  }
  std::printf("| %-28s | %7.1f | %7.1f | %4.0f %% |\n", name, flops / own * 1e-9,
              flops / blas * 1e-9, 100 * blas / own);
}

}  // namespace

int main() {
  if (openblas_set_num_threads != nullptr) openblas_set_num_threads(1);
  std::printf("vector path: %s\n", partonfit::vector_path_name(partonfit::vector_path()));
  double worst = 0;
  for (int t = 0; t < 4; ++t) {
    const bool ta = t & 1, tb = t & 2;
    for (const auto& shape : std::vector<std::vector<int64_t>>{
             {1, 1, 1}, {13, 33, 7}, {150, 70, 300}, {37, 2100, 260}, {300, 45, 513}, {5, 5, 0}}) {
      for (int64_t pad : {0, 3}) {
        worst = std::max(worst, check_gemm(ta, tb, shape[0], shape[1], shape[2], pad));
      }
    }
  }
  for (bool t : {false, true}) {
    for (const auto& shape : std::vector<std::vector<int64_t>>{{1, 1}, {7, 35}, {5000, 3}, {3, 5000}}) {
      worst = std::max(worst, check_gemv(t, shape[0], shape[1], 0, 1, 1));
      worst = std::max(worst, check_gemv(t, shape[0], shape[1], 5, 3, 2));
    }
  }
  std::printf("sgemm, sgemv worst error / (k 2^-23 sum|terms|): %.3g\n", worst);
  std::printf("| product (single thread)      | own GFLOP/s | CBLAS | CBLAS time / own |\n");
  bench_gemm("512^3", false, false, 512, 512, 512);
  bench_gemm("1024^3", false, false, 1024, 1024, 1024);
  bench_gemm("2048^3", false, false, 2048, 2048, 2048);
  bench_gemm("1024^3 A^T", true, false, 1024, 1024, 1024);
  bench_gemm("1024^3 B^T", false, true, 1024, 1024, 1024);
  bench_gemm("(5000, 25) @ (25, 25)", false, false, 5000, 25, 25);
  bench_gemm("(50, 450) @ (450, 400)", false, false, 50, 400, 450);
  bench_gemm("(100, 450) @ (450, 400)", false, false, 100, 400, 450);
  bench_gemm("(5000, 25)^T @ (5000, 25)", true, false, 25, 25, 5000);
  bench_gemv("gemv (4096, 4096)", false, 4096, 4096);
  bench_gemv("gemv (4096, 4096)^T", true, 4096, 4096);
  return worst <= 1 ? 0 : 1;
}
