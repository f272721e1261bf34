// The machine's float32 peak as the BLAS reaches it: every thread of the pool multiplies its own
// pair of (n, n) matrices at the same time, with nothing split, packed or added by the addon.
#pragma once

#include <cstdint>
#include <vector>

namespace partonfit {

// Seconds of each of `rounds` rounds (after one warm-up), each round one sgemm of (n, n) @ (n, n)
// per thread of the pool, all threads at once.
std::vector<double> time_parallel_sgemm(int64_t n, int64_t rounds);

}  // namespace partonfit
