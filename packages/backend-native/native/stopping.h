// The trainer's early stopping, replica by replica, in one pass: the stopping state's update and
// the snapshot of the best weights.
#pragma once

#include <cstdint>

namespace partonfit {

// The step's losses, the stopping state (updated in place into `out`) and its settings; every
// array (replicas) float32. See STOPPING_UPDATE_KERNEL in @partonfit/backend for the rule.
struct StoppingArrays {
  const float* training;
  const float* validation;
  const float* validation_chi2;
  const float* positivity;
  const float* best_validation;
  const float* best_epoch;
  const float* stop_epoch;
  const float* waiting;
  const float* counting;
  const float* failed;
  const float* patience;
  const float* epoch_limit;
};

struct StoppingSettingsNative {
  float epoch;
  float threshold_chi2;
  float positivity_threshold;
  float delta;
};

// out: 7 arrays of `replicas` floats: best_validation, best_epoch, stop_epoch, waiting,
// counting, failed, best (1 / 0).
void stopping_update(const StoppingArrays& in, const StoppingSettingsNative& settings,
                     int64_t replicas, float* const out[7]);

// out = rows of `weight` where best[start + row] != 0, else rows of `snapshot`; `rows` rows of
// `row_size` floats.
void keep_best_rows(const float* best, int64_t start, const float* weight, const float* snapshot,
                    int64_t rows, int64_t row_size, float* out);

}  // namespace partonfit
