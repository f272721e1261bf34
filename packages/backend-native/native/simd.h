// Function multi-versioning for the addon's hand-written loops: the library is compiled for the
// x86-64 baseline, and PARTONFIT_CLONES compiles a function once more for AVX-512 and for AVX2,
// picking the widest the CPU has when the addon loads.
#pragma once

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define PARTONFIT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PARTONFIT_CLONES
#endif

#define PARTONFIT_INLINE inline __attribute__((always_inline))
