// Float32 reductions over the middle axis of an (outer, reduced, inner) view, accumulated in
// float64 so that sums over millions of elements keep float32 accuracy.
#pragma once

#include <cstdint>

namespace partonfit {

enum class ReduceOp : int32_t {
  kSum = 0,
  kMean = 1,
  kMax = 2,
  kMin = 3,
};
constexpr int32_t kReduceOpCount = 4;

// out[o * inner + j] = op over r of x[(o * reduced + r) * inner + j]; out has outer * inner
// elements. An empty reduction gives 0 for sum, NaN for mean, -inf / +inf for max / min.
void reduce(ReduceOp op, const float* x, int64_t outer, int64_t reduced, int64_t inner,
            float* out);

}  // namespace partonfit
