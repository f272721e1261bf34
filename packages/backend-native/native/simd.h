// Function multi-versioning for the addon's hand-written loops: the library is compiled for the
// x86-64 baseline, and PARTONFIT_CLONES compiles a function once more for AVX-512 and for AVX2,
// picking the widest the CPU has when the addon loads. The x86-64-v4 and -v3 levels bring the
// FMA instructions and AVX-512's 256-bit forms (VL) with them, which "avx512f" and "avx2" alone
// do not: without them, 8-lane vectors get separate multiplies and adds in 16 registers.
#pragma once

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && \
    __GNUC__ >= 11
#define PARTONFIT_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#elif defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define PARTONFIT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PARTONFIT_CLONES
#endif

#define PARTONFIT_INLINE inline __attribute__((always_inline))
