// GCC vector types of one register of each clone (simd.h) and their unaligned loads and stores,
// for the addon's hand-written kernels. Vectors are only passed between always-inlined
// functions, so their ABI (-Wpsabi) never matters.
#pragma once

#include <cstdint>
#include <cstring>

#include "simd.h"

#pragma GCC diagnostic ignored "-Wpsabi"

namespace partonfit {

typedef float Lanes16 __attribute__((vector_size(64)));  // an AVX-512 register
typedef float Lanes8 __attribute__((vector_size(32)));   // an AVX2 register
typedef float Lanes4 __attribute__((vector_size(16)));   // an SSE register

// Floats in one vector of type V.
template <typename V>
constexpr int64_t kWidth = sizeof(V) / sizeof(float);

template <typename V>
PARTONFIT_INLINE V load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename V>
PARTONFIT_INLINE void store(float* p, V v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace partonfit
