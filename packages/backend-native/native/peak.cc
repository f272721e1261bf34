#include "peak.h"

#include <chrono>

#include "blas.h"
#include "thread_pool.h"

namespace partonfit {

std::vector<double> time_parallel_sgemm(int64_t n, int64_t rounds) {
  ThreadPool& pool = ThreadPool::instance();
  const int threads = pool.threads();
  const int64_t size = n * n;
  // Per thread: a, b and the product, with values in [-1, 1) that are no special case.
  std::vector<float> matrices(static_cast<size_t>(3 * size * threads));
  for (int64_t i = 0; i < static_cast<int64_t>(matrices.size()); ++i) {
    matrices[i] = static_cast<float>((i * 7919) % 2001 - 1000) / 1000.0f;
  }
  const auto round = [&] {
    pool.run_tasks(threads, [&](int64_t thread) {
      float* a = matrices.data() + 3 * size * thread;
      sgemm(false, false, n, n, n, a, n, a + size, n, a + 2 * size, n);
    });
  };
  round();
  std::vector<double> seconds;
  for (int64_t r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    round();
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return seconds;
}

}  // namespace partonfit
