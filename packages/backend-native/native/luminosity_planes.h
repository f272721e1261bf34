// The hadronic FK contraction for a few replicas, with the FK table in the vectors' lanes. The
// replica-lane kernels (luminosity.cc) fill one lane in 8 or 16 for a single replica and read the
// table tile by tile; these read it once, front to back, in whole vectors. Each (channel, x1)
// row of the table is a contiguous (x2, data) plane, so
//   plane[r, c](b, n) = Σ_a pdf[r, a, f1(c)] · fk[(c, a, b), n]
// is a sum of whole rows, and the forward and the gradient follow from it and the row sums. Given
// half contractions to keep (LuminosityProblem), the forward also sums each row against the
// second factor, and the gradient reads both instead of the table.
#pragma once

#include <cstdint>

#include "luminosity.h"

namespace partonfit {

// Below this many replicas the contraction and its gradient run on planes. Measured on AVX-512
// with a 640 MB table set (50 x points, 2 threads), a forward that keeps the half contractions
// and the gradient from them against replica lanes: 19 against 49 ms at 1 replica, 32 against 45
// at 4, 42 against 46 at 6 and 46 against 46 at 7 and 8.
constexpr int64_t kPlaneReplicas = 7;

// luminosity_contraction (luminosity.h) on planes.
void plane_contraction(const LuminosityProblem& p, float* out);

// luminosity_contraction_grad (luminosity.h) on planes.
void plane_contraction_grad(const LuminosityProblem& p, const float* dy, float* d_pdf);

}  // namespace partonfit
