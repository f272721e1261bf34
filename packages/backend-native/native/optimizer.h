// Fused optimiser updates of a multi-replica model's variables: one pass over a variable, its
// gradient and its statistics, row (replica) by row, instead of some twenty element-wise kernels.
#pragma once

#include <cstdint>

namespace partonfit {

// The float32 constants of the Adam family's formula.
struct AdamFamilyConstants {
  float one_minus_beta1;
  float one_minus_beta2;
  float epsilon;
};

// Adam/Nadam (the trainer's adamFamilyRule) on `rows` rows of `row_size` elements: each row with
// update[row] != 0 is clipped by its norm and updated with its factors (clipnorm,
// momentumWeight, gradientWeight, rate, velocityWeight); the others are copied unchanged. Every
// operation is float32, in the order of the tensor formulation (see the TypeScript contract,
// ADAM_FAMILY_UPDATE_KERNEL in @partonfit/backend). Rows never mix.
void adam_family_update(const float* variable, const float* gradient, const float* momentum,
                        const float* velocity, const float* factors, const float* update,
                        const AdamFamilyConstants& constants, int64_t rows, int64_t row_size,
                        float* variable_out, float* momentum_out, float* velocity_out);

}  // namespace partonfit
