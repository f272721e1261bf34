// The hadronic FK contraction fused with its luminosity, in register-tiled loops that never form
// the (replicas, x1 · x2 · channel) luminosity: the replicas sit in the lanes of the vectors,
// each FK value is broadcast once per vector of replicas, and the FK table is read in place.
#pragma once

#include <cstdint>

namespace partonfit {

// first and second (replicas, x, channels); fk (channels · x · x, data) with row
// (c · x + a) · x + b, all row-major: each channel's block of the FK table is contiguous.
struct LuminosityProblem {
  const float* first = nullptr;
  const float* second = nullptr;
  const float* fk = nullptr;
  int64_t replicas = 0;
  int64_t x = 0;
  int64_t channels = 0;
  int64_t data = 0;
};

// out (replicas, data) = Σ_{c, a, b} first[r, a, c] · second[r, b, c] · fk[(c, a, b), n].
void luminosity_contraction(const LuminosityProblem& p, float* out);

// The gradients of Σ dy ⊙ out: with dL[r, c, a, b] = Σ_n dy[r, n] · fk[(c, a, b), n],
// d_first[r, a, c] = Σ_b dL · second[r, b, c] and d_second[r, b, c] = Σ_a dL · first[r, a, c];
// dy (replicas, data), d_first and d_second (replicas, x, channels).
void luminosity_contraction_grad(const LuminosityProblem& p, const float* dy, float* d_first,
                                 float* d_second);

}  // namespace partonfit
