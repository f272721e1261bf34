// Function multi-versioning for the addon's hand-written loops: the library is compiled for the
// x86-64 baseline, and PARTONFIT_CLONES compiles a function once more for AVX-512 and for AVX2,
// picking the widest the CPU has when the addon loads. The x86-64-v4 and -v3 levels bring the
// FMA instructions and AVX-512's 256-bit forms (VL) with them, which "avx512f" and "avx2" alone
// do not: without them, 8-lane vectors get separate multiplies and adds in 16 registers.
//
// The build can leave out the widest clones (PARTONFIT_NATIVE_ISA=avx2 or baseline at install,
// which defines PARTONFIT_ISA_AVX2 or PARTONFIT_ISA_BASELINE), so that the narrower kernels can
// be tested on a CPU that has the wider ones.
#pragma once

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(PARTONFIT_ISA_BASELINE)
#define PARTONFIT_HAS_CLONES 1
#if __GNUC__ >= 11
#define PARTONFIT_AVX512_LEVEL "arch=x86-64-v4"
#define PARTONFIT_AVX2_LEVEL "arch=x86-64-v3"
#else
#define PARTONFIT_AVX512_LEVEL "avx512f"
#define PARTONFIT_AVX2_LEVEL "avx2"
#endif
#ifdef PARTONFIT_ISA_AVX2
#define PARTONFIT_CLONES __attribute__((target_clones(PARTONFIT_AVX2_LEVEL, "default")))
#else
#define PARTONFIT_HAS_AVX512_CLONES 1
#define PARTONFIT_CLONES \
  __attribute__((target_clones(PARTONFIT_AVX512_LEVEL, PARTONFIT_AVX2_LEVEL, "default")))
#endif
#else
#define PARTONFIT_CLONES
#endif

// Compiles a function for AVX-512 alone, where the build has the AVX-512 clones: for kernels that
// only run where wide_vectors() holds, so that no other clone compiles them.
#ifdef PARTONFIT_HAS_AVX512_CLONES
#define PARTONFIT_WIDE __attribute__((target(PARTONFIT_AVX512_LEVEL)))
#else
#define PARTONFIT_WIDE
#endif

#define PARTONFIT_INLINE inline __attribute__((always_inline))

namespace partonfit {

// The clone of PARTONFIT_CLONES functions that runs on this CPU.
enum class VectorPath { kBaseline, kAvx2, kAvx512 };

// Decided once, from the clones the build has and the CPU's features, as the clones' resolver
// decides.
VectorPath vector_path();

// Whether the hand-written kernels use 16-lane vectors: where the AVX-512 clone runs and has
// AVX-512's 256-bit forms (VL) for their 8-lane remainders. Otherwise they use 8 lanes, as on
// AVX2, the baseline and a build without the AVX-512 clones (PARTONFIT_NATIVE_ISA=avx2).
bool wide_vectors();

// "AVX-512", "AVX2" or "baseline".
const char* vector_path_name(VectorPath path);

}  // namespace partonfit
