#include "stopping.h"

#include <algorithm>
#include <cmath>

namespace partonfit {

void stopping_update(const StoppingArrays& in, const StoppingSettingsNative& s, int64_t replicas,
                     float* const out[7]) {
  for (int64_t r = 0; r < replicas; ++r) {
    const bool ended = in.epoch_limit[r] <= s.epoch;
    const bool stopped = in.stop_epoch[r] >= 0.0f || ended;
    const bool diverged =
        !(std::isfinite(in.training[r]) && std::isfinite(in.validation[r])) && !stopped;
    const float threshold = in.best_validation[r] - s.delta;
    const bool improves = (in.counting[r] > 0.0f || in.validation_chi2[r] < s.threshold_chi2) &&
                          in.validation[r] < threshold && in.positivity[r] < s.positivity_threshold;
    const bool best = improves && !(stopped || diverged);
    const float counted = best ? 0.0f : in.waiting[r] + in.counting[r];
    const float waiting = ended ? in.waiting[r] : counted;
    const bool out_of_patience = waiting > in.patience[r] && !stopped;
    out[0][r] = best ? in.validation[r] : in.best_validation[r];
    out[1][r] = best ? s.epoch : in.best_epoch[r];
    out[2][r] = diverged || out_of_patience ? s.epoch : in.stop_epoch[r];
    out[3][r] = waiting;
    out[4][r] = best ? 1.0f : in.counting[r];
    out[5][r] = diverged ? 1.0f : in.failed[r];
    out[6][r] = best ? 1.0f : 0.0f;
  }
}

void keep_best_rows(const float* best, int64_t start, const float* weight, const float* snapshot,
                    int64_t rows, int64_t row_size, float* out) {
  for (int64_t row = 0; row < rows; ++row) {
    const float* from = best[start + row] != 0.0f ? weight : snapshot;
    std::copy(from + row * row_size, from + (row + 1) * row_size, out + row * row_size);
  }
}

}  // namespace partonfit
