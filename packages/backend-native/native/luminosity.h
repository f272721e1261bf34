// The hadronic FK contraction fused with its luminosity, in register-tiled loops that never form
// the (replicas, x1 · x2 · channel) luminosity: the replicas sit in the lanes of the vectors,
// each FK value is broadcast once per vector of replicas, and the FK table is read in place.
// The channels' factors are read straight from the PDF by flavour index, so that no per-channel
// copy of the PDF is made, and the gradient comes back per flavour.
#pragma once

#include <cstdint>

namespace partonfit {

// pdf (replicas, x, flavours); fk (channels · x · x, data) with row (c · x + a) · x + b, all
// row-major: each channel's block of the FK table is contiguous. Channel c multiplies flavour
// first_flavour[c] of the first proton by flavour second_flavour[c] of the second, both in
// [0, flavours).
struct LuminosityProblem {
  const float* pdf = nullptr;
  const float* fk = nullptr;
  const int32_t* first_flavour = nullptr;
  const int32_t* second_flavour = nullptr;
  int64_t replicas = 0;
  int64_t x = 0;
  int64_t flavours = 0;
  int64_t channels = 0;
  int64_t data = 0;
  // Where the table can be non-zero (luminosity_support's layout), or null for a dense table:
  // the kernels skip the x2 points outside it.
  const int32_t* support = nullptr;
  // Below kPlaneReplicas (luminosity_planes.h) replicas, the table's half contractions
  // (channels, 2, replicas, x, data), or null: the forward writes Σ_a pdf[r, a, f1(c)] ·
  // fk[(c, a, b), n] at [c, 0, r, b, n] and Σ_b pdf[r, b, f2(c)] · fk[(c, a, b), n] at
  // [c, 1, r, a, n], and the gradient then reads them instead of the table.
  float* half_contractions = nullptr;
};

// Where each column of an FK table (fk as in LuminosityProblem) is non-zero in x2: for channel c,
// x1 point a and data point n, support[((c · x + a) · data + n) · 2] is the first x2 point b with
// fk[(c · x + a) · x + b, n] ≠ 0 and the next entry one past the last; both are 0 for a column
// of zeros. Skipping the zeros it marks changes no sum: a + 0 · y = a for finite y.
void luminosity_support(const float* fk, int64_t channels, int64_t x, int64_t data,
                        int32_t* support);

// out (replicas, data) = Σ_{c, a, b} pdf[r, a, f1(c)] · pdf[r, b, f2(c)] · fk[(c, a, b), n].
void luminosity_contraction(const LuminosityProblem& p, float* out);

// The gradient of Σ dy ⊙ out with respect to the PDF: with dL[r, c, a, b] = Σ_n dy[r, n] ·
// fk[(c, a, b), n], d_pdf[r, a, f] = Σ_{c: f1(c) = f} Σ_b dL · pdf[r, b, f2(c)] +
// Σ_{c: f2(c) = f} Σ_b dL[r, c, b, a] · pdf[r, b, f1(c)]; dy (replicas, data), d_pdf
// (replicas, x, flavours).
void luminosity_contraction_grad(const LuminosityProblem& p, const float* dy, float* d_pdf);

}  // namespace partonfit
