#include "optimizer.h"

#include <algorithm>
#include <cmath>

#include "elementwise.h"
#include "thread_pool.h"
#include "vectors.h"

// Every multiply and add rounds on its own, as the tensor formulation's kernels compute them: no
// fused multiply-adds, whichever clone runs.
#pragma GCC optimize("fp-contract=off")

namespace partonfit {

namespace {

constexpr int64_t kRowFactors = 5;

// 16 floats: one AVX-512 register, two AVX2 registers or four SSE registers, depending on the
// clone the code is compiled into.
constexpr int64_t kLanes = kWidth<Lanes16>;

// Rows whose sums of squares sums_of_squares computes together.
constexpr int64_t kSumRows = 8;

// The sums of squares of `count` (<= kSumRows) consecutive rows of `size` elements. Each row's
// sum adds its elements one by one in order, so it does not depend on the row's layout: a
// narrower replica's zero padding adds nothing, and its sum is the one it has in a model of its
// own width. The rows' sums are interleaved, so that none waits for the adds of the others.
PARTONFIT_INLINE void sums_of_squares(const float* g, int64_t count, int64_t size, float* sums) {
  float running[kSumRows] = {};
  for (int64_t i = 0; i < size; ++i) {
    for (int64_t k = 0; k < kSumRows; ++k) {
      const float element = k < count ? g[k * size + i] : 0.0f;
      running[k] += element * element;
    }
  }
  std::copy(running, running + count, sums);
}

// The row's factors and its gradient's scale, for update_block.
struct RowUpdate {
  float scale;  // the clipping's factor, 1 without clipping
  float momentum_weight;
  float gradient_weight;
  float rate;
  float velocity_weight;
};

// kLanes elements of a row. A factor of 1 (no clipping, a rate or velocity weight of 1)
// multiplies exactly, so it needs no branch of its own; a gradient weight of 0 is left out, as
// the formula says. Branch-free over a fixed number of elements, the loop vectorizes whole.
template <bool kGradientWeight>
PARTONFIT_INLINE void update_block(const float* w, const float* g, const float* m, const float* v,
                                   const RowUpdate& f, const AdamFamilyConstants& c, float* w_out,
                                   float* m_out, float* v_out) {
  // an output may be its own input, element by element: the elements never depend on each other
#pragma omp simd
  for (int64_t i = 0; i < kLanes; ++i) {
    const float gradient = g[i] * f.scale;
    const float next_momentum = m[i] + (gradient - m[i]) * c.one_minus_beta1;
    const float next_velocity = v[i] + (gradient * gradient - v[i]) * c.one_minus_beta2;
    float momentum_hat = next_momentum * f.momentum_weight;
    if constexpr (kGradientWeight) momentum_hat = momentum_hat + gradient * f.gradient_weight;
    const float velocity_hat = next_velocity * f.velocity_weight;
    const float step = momentum_hat * f.rate;
    w_out[i] = w[i] - step / (std::sqrt(velocity_hat) + c.epsilon);
    m_out[i] = next_momentum;
    v_out[i] = next_velocity;
  }
}

// One row of adam_family_update, in blocks of kLanes from the row's first element and its last
// elements through the same block (zero-padded copies), so that every element is computed by
// the same instructions wherever the row sits in memory.
template <bool kGradientWeight>
PARTONFIT_INLINE void update_row(const float* w, const float* g, const float* m, const float* v,
                                 const float* row_factors, float squares,
                                 const AdamFamilyConstants& c, int64_t size, float* w_out,
                                 float* m_out, float* v_out) {
  const float clipnorm = row_factors[0];
  const RowUpdate f{
      clipnorm > 0.0f ? clipnorm / std::max(std::sqrt(squares), clipnorm) : 1.0f, row_factors[1],
      row_factors[2], row_factors[3], row_factors[4]};
  int64_t i = 0;
  for (; i + kLanes <= size; i += kLanes) {
    update_block<kGradientWeight>(w + i, g + i, m + i, v + i, f, c, w_out + i, m_out + i,
                                  v_out + i);
  }
  if (i == size) return;
  const int64_t rest = size - i;
  float in[4][kLanes] = {};
  float out[3][kLanes];
  std::copy(w + i, w + size, in[0]);
  std::copy(g + i, g + size, in[1]);
  std::copy(m + i, m + size, in[2]);
  std::copy(v + i, v + size, in[3]);
  update_block<kGradientWeight>(in[0], in[1], in[2], in[3], f, c, out[0], out[1], out[2]);
  std::copy(out[0], out[0] + rest, w_out + i);
  std::copy(out[1], out[1] + rest, m_out + i);
  std::copy(out[2], out[2] + rest, v_out + i);
}

PARTONFIT_CLONES void update_rows(const float* variable, const float* gradient,
                                  const float* momentum, const float* velocity,
                                  const float* factors, const float* update,
                                  const AdamFamilyConstants& constants, int64_t begin, int64_t end,
                                  int64_t row_size, float* variable_out, float* momentum_out,
                                  float* velocity_out) {
  float squares[kSumRows];
  for (int64_t row = begin; row < end; ++row) {
    const int64_t at = row * row_size;
    if ((row - begin) % kSumRows == 0) {
      sums_of_squares(gradient + at, std::min(kSumRows, end - row), row_size, squares);
    }
    const float row_squares = squares[(row - begin) % kSumRows];
    if (update[row] == 0.0f) {
      std::copy(variable + at, variable + at + row_size, variable_out + at);
      std::copy(momentum + at, momentum + at + row_size, momentum_out + at);
      std::copy(velocity + at, velocity + at + row_size, velocity_out + at);
      continue;
    }
    const float* row_factors = factors + row * kRowFactors;
    if (row_factors[2] != 0.0f) {
      update_row<true>(variable + at, gradient + at, momentum + at, velocity + at, row_factors,
                       row_squares, constants, row_size, variable_out + at, momentum_out + at,
                       velocity_out + at);
    } else {
      update_row<false>(variable + at, gradient + at, momentum + at, velocity + at, row_factors,
                        row_squares, constants, row_size, variable_out + at, momentum_out + at,
                        velocity_out + at);
    }
  }
}

}  // namespace

void adam_family_update(const float* variable, const float* gradient, const float* momentum,
                        const float* velocity, const float* factors, const float* update,
                        const AdamFamilyConstants& constants, int64_t rows, int64_t row_size,
                        float* variable_out, float* momentum_out, float* velocity_out) {
  auto run_rows = [&](int64_t begin, int64_t end) {
    update_rows(variable, gradient, momentum, velocity, factors, update, constants, begin, end,
                row_size, variable_out, momentum_out, velocity_out);
  };
  if (rows * row_size < kParallelElements || rows < 2) {
    run_rows(0, rows);
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kParallelElements / 2 / std::max<int64_t>(row_size, 1));
  ThreadPool::instance().parallel_for(rows, grain, run_rows);
}

}  // namespace partonfit
