#include "fast_math.h"

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define PARTONFIT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PARTONFIT_CLONES
#endif

namespace partonfit {

PARTONFIT_CLONES void fast_exp(const float* x, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = fast_exp_one(x[i]);
}

PARTONFIT_CLONES void fast_tanh(const float* x, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = fast_tanh_one(x[i]);
}

PARTONFIT_CLONES void fast_sigmoid(const float* x, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = fast_sigmoid_one(x[i]);
}

}  // namespace partonfit
