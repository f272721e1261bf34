#include "fast_math.h"

#include <algorithm>

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define PARTONFIT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PARTONFIT_CLONES
#endif

namespace partonfit {

namespace {

// Elements one block of the array forms computes: a whole number of vectors at every width the
// clones use (16 floats of AVX-512, 2 × 8 of AVX2, 4 × 4 of SSE).
constexpr int64_t kBlock = 16;

// y = f(x) over count elements, every element through the same fully vectorized block of
// kBlock (the last ones padded with zeros), so that an element's result does not depend on
// where it sits in the array. A loop over count would compute its last count % vector-width
// elements in scalar code, which rounds some results differently (measured: 0.5 % of tanh
// values one ulp off), and so make a replica's numbers depend on how many replicas share the
// array.
template <class F>
inline void map_blocks(const float* x, float* y, int64_t count, F f) {
  int64_t i = 0;
  for (; i + kBlock <= count; i += kBlock) {
    for (int64_t j = 0; j < kBlock; ++j) y[i + j] = f(x[i + j]);
  }
  if (i == count) return;
  float in[kBlock] = {};
  float out[kBlock];
  std::copy(x + i, x + count, in);
  for (int64_t j = 0; j < kBlock; ++j) out[j] = f(in[j]);
  std::copy(out, out + (count - i), y + i);
}

}  // namespace

PARTONFIT_CLONES void fast_exp(const float* x, float* y, int64_t count) {
  map_blocks(x, y, count, fast_exp_one);
}

PARTONFIT_CLONES void fast_tanh(const float* x, float* y, int64_t count) {
  map_blocks(x, y, count, fast_tanh_one);
}

PARTONFIT_CLONES void fast_sigmoid(const float* x, float* y, int64_t count) {
  map_blocks(x, y, count, fast_sigmoid_one);
}

}  // namespace partonfit
