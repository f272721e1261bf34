#include "simd.h"

namespace partonfit {

namespace {

VectorPath detect_vector_path() {
#ifdef PARTONFIT_HAS_CLONES
  __builtin_cpu_init();
#if __GNUC__ >= 11
#ifdef PARTONFIT_HAS_AVX512_CLONES
  if (__builtin_cpu_supports("x86-64-v4")) return VectorPath::kAvx512;
#endif
  if (__builtin_cpu_supports("x86-64-v3")) return VectorPath::kAvx2;
#else
#ifdef PARTONFIT_HAS_AVX512_CLONES
  if (__builtin_cpu_supports("avx512f")) return VectorPath::kAvx512;
#endif
  if (__builtin_cpu_supports("avx2")) return VectorPath::kAvx2;
#endif
#endif
  return VectorPath::kBaseline;
}

}  // namespace

VectorPath vector_path() {
  static const VectorPath path = detect_vector_path();
  return path;
}

bool wide_vectors() {
#ifdef PARTONFIT_HAS_AVX512_CLONES
  static const bool wide =
      vector_path() == VectorPath::kAvx512 && __builtin_cpu_supports("avx512vl");
  return wide;
#else
  return false;
#endif
}

const char* vector_path_name(VectorPath path) {
  switch (path) {
    case VectorPath::kAvx512:
      return "AVX-512";
    case VectorPath::kAvx2:
      return "AVX2";
    default:
      return "baseline";
  }
}

}  // namespace partonfit
