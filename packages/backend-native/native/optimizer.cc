#include "optimizer.h"

#include <algorithm>
#include <cmath>

#include "elementwise.h"
#include "thread_pool.h"

namespace partonfit {

namespace {

constexpr int64_t kRowFactors = 5;

// One row of adam_family_update.
void update_row(const float* w, const float* g, const float* m, const float* v,
                const float* row_factors, const AdamFamilyConstants& c, int64_t size, float* w_out,
                float* m_out, float* v_out) {
  const float clipnorm = row_factors[0];
  const float momentum_weight = row_factors[1];
  const float gradient_weight = row_factors[2];
  const float rate = row_factors[3];
  const float velocity_weight = row_factors[4];
  float scale = 1.0f;
  const bool clips = clipnorm > 0.0f;
  if (clips) {
    float squares = 0.0f;
    for (int64_t i = 0; i < size; ++i) squares += g[i] * g[i];
    scale = clipnorm / std::max(std::sqrt(squares), clipnorm);
  }
  for (int64_t i = 0; i < size; ++i) {
    const float gradient = clips ? g[i] * scale : g[i];
    const float next_momentum = m[i] + (gradient - m[i]) * c.one_minus_beta1;
    const float next_velocity = v[i] + (gradient * gradient - v[i]) * c.one_minus_beta2;
    float momentum_hat = next_momentum * momentum_weight;
    if (gradient_weight != 0.0f) momentum_hat = momentum_hat + gradient * gradient_weight;
    const float velocity_hat =
        velocity_weight == 1.0f ? next_velocity : next_velocity * velocity_weight;
    const float step = rate == 1.0f ? momentum_hat : momentum_hat * rate;
    w_out[i] = w[i] - step / (std::sqrt(velocity_hat) + c.epsilon);
    m_out[i] = next_momentum;
    v_out[i] = next_velocity;
  }
}

}  // namespace

void adam_family_update(const float* variable, const float* gradient, const float* momentum,
                        const float* velocity, const float* factors, const float* update,
                        const AdamFamilyConstants& constants, int64_t rows, int64_t row_size,
                        float* variable_out, float* momentum_out, float* velocity_out) {
  auto run_rows = [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t at = row * row_size;
      if (update[row] == 0.0f) {
        std::copy(variable + at, variable + at + row_size, variable_out + at);
        std::copy(momentum + at, momentum + at + row_size, momentum_out + at);
        std::copy(velocity + at, velocity + at + row_size, velocity_out + at);
        continue;
      }
      update_row(variable + at, gradient + at, momentum + at, velocity + at,
                 factors + row * kRowFactors, constants, row_size, variable_out + at,
                 momentum_out + at, velocity_out + at);
    }
  };
  if (rows * row_size < kParallelElements || rows < 2) {
    run_rows(0, rows);
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kParallelElements / 2 / std::max<int64_t>(row_size, 1));
  ThreadPool::instance().parallel_for(rows, grain, run_rows);
}

}  // namespace partonfit
