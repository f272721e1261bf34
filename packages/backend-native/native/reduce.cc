#include "reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "elementwise.h"
#include "thread_pool.h"

namespace partonfit {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Max / min that, like the cpu backend, return NaN as soon as one element is NaN.
inline float keep_max(float kept, float value) {
  return (value > kept || value != value) ? value : kept;
}
inline float keep_min(float kept, float value) {
  return (value < kept || value != value) ? value : kept;
}

// Sum of a contiguous run in float64 (vectorized: the pragma lets the additions reorder).
double sum_run(const float* x, int64_t count) {
  double total = 0.0;
#pragma omp simd reduction(+ : total)
  for (int64_t i = 0; i < count; ++i) total += static_cast<double>(x[i]);
  return total;
}

// Max or min of a contiguous non-empty run, in 16 independent lanes.
template <bool kMax>
float extreme_run(const float* x, int64_t count) {
  constexpr int kLanes = 16;
  float lanes[kLanes];
  for (int l = 0; l < kLanes; ++l) lanes[l] = x[0];
  int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      lanes[l] = kMax ? keep_max(lanes[l], x[i + l]) : keep_min(lanes[l], x[i + l]);
    }
  }
  float kept = x[0];
  for (int l = 0; l < kLanes; ++l) kept = kMax ? keep_max(kept, lanes[l]) : keep_min(kept, lanes[l]);
  for (; i < count; ++i) kept = kMax ? keep_max(kept, x[i]) : keep_min(kept, x[i]);
  return kept;
}

// Partial result of rows [r0, r1) of one (reduced, inner) slab into acc (inner values): sums
// accumulate in float64, max / min in float.
void accumulate_sum(const float* slab, int64_t inner, int64_t r0, int64_t r1, double* acc) {
  if (inner == 1) {
    acc[0] += sum_run(slab + r0, r1 - r0);
    return;
  }
  for (int64_t r = r0; r < r1; ++r) {
    const float* row = slab + r * inner;
    for (int64_t j = 0; j < inner; ++j) acc[j] += static_cast<double>(row[j]);
  }
}

template <bool kMax>
void accumulate_extreme(const float* slab, int64_t inner, int64_t r0, int64_t r1, float* acc) {
  if (inner == 1) {
    const float run = extreme_run<kMax>(slab + r0, r1 - r0);
    acc[0] = kMax ? keep_max(acc[0], run) : keep_min(acc[0], run);
    return;
  }
  for (int64_t r = r0; r < r1; ++r) {
    const float* row = slab + r * inner;
    for (int64_t j = 0; j < inner; ++j) {
      acc[j] = kMax ? keep_max(acc[j], row[j]) : keep_min(acc[j], row[j]);
    }
  }
}

// Reduces slabs [o0, o1) completely, each on one thread.
void reduce_slabs(ReduceOp op, const float* x, int64_t o0, int64_t o1, int64_t reduced,
                  int64_t inner, float* out) {
  std::vector<double> sums;
  if (op == ReduceOp::kSum || op == ReduceOp::kMean) sums.resize(inner);
  for (int64_t o = o0; o < o1; ++o) {
    const float* slab = x + o * reduced * inner;
    float* result = out + o * inner;
    switch (op) {
      case ReduceOp::kSum:
      case ReduceOp::kMean: {
        std::fill(sums.begin(), sums.end(), 0.0);
        accumulate_sum(slab, inner, 0, reduced, sums.data());
        const double scale = op == ReduceOp::kMean ? 1.0 / static_cast<double>(reduced) : 1.0;
        for (int64_t j = 0; j < inner; ++j) result[j] = static_cast<float>(sums[j] * scale);
        break;
      }
      case ReduceOp::kMax:
        std::fill(result, result + inner, -kInf);
        accumulate_extreme<true>(slab, inner, 0, reduced, result);
        break;
      case ReduceOp::kMin:
        std::fill(result, result + inner, kInf);
        accumulate_extreme<false>(slab, inner, 0, reduced, result);
        break;
    }
  }
}

// Few slabs: every thread takes a share of the reduced axis of each slab, then the shares are
// combined (sums in float64).
void reduce_split(ReduceOp op, const float* x, int64_t outer, int64_t reduced, int64_t inner,
                  float* out) {
  ThreadPool& pool = ThreadPool::instance();
  const int64_t shares = std::min<int64_t>(pool.threads(), reduced);
  const int64_t size = outer * inner;
  const bool summing = op == ReduceOp::kSum || op == ReduceOp::kMean;
  std::vector<double> sums(summing ? shares * size : 0, 0.0);
  std::vector<float> extremes(summing ? 0 : shares * size, op == ReduceOp::kMax ? -kInf : kInf);
  pool.run_tasks(shares, [&](int64_t share) {
    const int64_t r0 = reduced * share / shares;
    const int64_t r1 = reduced * (share + 1) / shares;
    for (int64_t o = 0; o < outer; ++o) {
      const float* slab = x + o * reduced * inner;
      if (summing) {
        accumulate_sum(slab, inner, r0, r1, sums.data() + share * size + o * inner);
      } else if (op == ReduceOp::kMax) {
        accumulate_extreme<true>(slab, inner, r0, r1, extremes.data() + share * size + o * inner);
      } else {
        accumulate_extreme<false>(slab, inner, r0, r1, extremes.data() + share * size + o * inner);
      }
    }
  });
  const double scale = op == ReduceOp::kMean ? 1.0 / static_cast<double>(reduced) : 1.0;
  for (int64_t i = 0; i < size; ++i) {
    if (summing) {
      double total = 0.0;
      for (int64_t share = 0; share < shares; ++share) total += sums[share * size + i];
      out[i] = static_cast<float>(total * scale);
    } else {
      float kept = extremes[i];
      for (int64_t share = 1; share < shares; ++share) {
        const float value = extremes[share * size + i];
        kept = op == ReduceOp::kMax ? keep_max(kept, value) : keep_min(kept, value);
      }
      out[i] = kept;
    }
  }
}

}  // namespace

void reduce(ReduceOp op, const float* x, int64_t outer, int64_t reduced, int64_t inner,
            float* out) {
  const int64_t size = outer * inner;
  if (size == 0) return;
  if (reduced == 0) {
    const float empty = op == ReduceOp::kSum    ? 0.0f
                        : op == ReduceOp::kMean ? kNaN
                        : op == ReduceOp::kMax  ? -kInf
                                                : kInf;
    std::fill(out, out + size, empty);
    return;
  }
  const int64_t work = size * reduced;
  ThreadPool& pool = ThreadPool::instance();
  if (work < kParallelElements) {
    reduce_slabs(op, x, 0, outer, reduced, inner, out);
  } else if (outer >= 2 * pool.threads()) {
    const int64_t grain = std::max<int64_t>(1, kParallelElements / (reduced * inner));
    pool.parallel_for(outer, grain, [&](int64_t o0, int64_t o1) {
      reduce_slabs(op, x, o0, o1, reduced, inner, out);
    });
  } else {
    reduce_split(op, x, outer, reduced, inner, out);
  }
}

}  // namespace partonfit
