#include "luminosity.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "blas.h"
#include "simd.h"
#include "thread_pool.h"

// Multiply-adds as fused multiply-adds where the target has them.
#pragma GCC optimize("fp-contract=fast")

namespace partonfit {

namespace {

// Floats of the per-thread luminosity buffer (2 MB: a core's L2 share on current x86).
constexpr int64_t kBufferFloats = int64_t{1} << 19;
// Contractions below this many multiply-adds run on the calling thread.
constexpr int64_t kParallelMultiplyAdds = int64_t{1} << 21;

// Replicas per block: as many as the buffer holds (at least one).
int64_t block_rows(const LuminosityProblem& p) {
  return std::clamp<int64_t>(kBufferFloats / (p.x * p.x), 1, p.replicas);
}

bool parallel(const LuminosityProblem& p) {
  return p.replicas * p.x * p.x * p.channels * p.data >= kParallelMultiplyAdds;
}

// Channel c's factors of replica r, gathered from their stride-`channels` layout.
void gather(const float* factors, const LuminosityProblem& p, int64_t r, int64_t c, float* out) {
  const float* column = factors + r * p.x * p.channels + c;
  for (int64_t a = 0; a < p.x; ++a) out[a] = column[a * p.channels];
}

// Writes x contiguous values to channel c of replica r in a (replicas, x, channels) array.
void scatter(const float* values, const LuminosityProblem& p, int64_t r, int64_t c,
             float* factors) {
  float* column = factors + r * p.x * p.channels + c;
  for (int64_t a = 0; a < p.x; ++a) column[a * p.channels] = values[a];
}

// Channel c's block of the FK table, (x · x, data).
const float* fk_block(const LuminosityProblem& p, int64_t c) { return p.fk + c * p.x * p.x * p.data; }

// block[a, b] = f1[a] · f2[b].
PARTONFIT_CLONES void outer_product(const float* f1, const float* f2, int64_t x, float* block) {
  for (int64_t a = 0; a < x; ++a) {
    const float value = f1[a];
    float* row = block + a * x;
#pragma omp simd
    for (int64_t b = 0; b < x; ++b) row[b] = value * f2[b];
  }
}

// buffer[(r - r0), (a, b)] = first[r, a, c] · second[r, b, c] for r in [r0, r1).
void form_luminosity(const LuminosityProblem& p, int64_t c, int64_t r0, int64_t r1,
                     float* buffer) {
  std::vector<float> f1(p.x), f2(p.x);
  for (int64_t r = r0; r < r1; ++r) {
    gather(p.first, p, r, c, f1.data());
    gather(p.second, p, r, c, f2.data());
    outer_product(f1.data(), f2.data(), p.x, buffer + (r - r0) * p.x * p.x);
  }
}

// g1 = block @ f2 and g2 = f1 @ block for an (x, x) block, four rows at a time so that each pass
// over g2 serves four of them.
PARTONFIT_CLONES void reduce_block(const float* block, const float* f1, const float* f2,
                                   int64_t x, float* g1, float* g2) {
  std::fill(g2, g2 + x, 0.0f);
  int64_t a = 0;
  for (; a + 4 <= x; a += 4) {
    const float* row0 = block + a * x;
    const float* row1 = row0 + x;
    const float* row2 = row1 + x;
    const float* row3 = row2 + x;
    const float w0 = f1[a], w1 = f1[a + 1], w2 = f1[a + 2], w3 = f1[a + 3];
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
    for (int64_t b = 0; b < x; ++b) {
      const float f = f2[b];
      s0 += row0[b] * f;
      s1 += row1[b] * f;
      s2 += row2[b] * f;
      s3 += row3[b] * f;
      g2[b] += row0[b] * w0 + row1[b] * w1 + row2[b] * w2 + row3[b] * w3;
    }
    g1[a] = s0;
    g1[a + 1] = s1;
    g1[a + 2] = s2;
    g1[a + 3] = s3;
  }
  for (; a < x; ++a) {
    const float* row = block + a * x;
    const float weight = f1[a];
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (int64_t b = 0; b < x; ++b) {
      sum += row[b] * f2[b];
      g2[b] += row[b] * weight;
    }
    g1[a] = sum;
  }
}

// The tasks of a loop over (channel group or channel, replica block), on the pool when large.
void run(const LuminosityProblem& p, int64_t tasks, const std::function<void(int64_t)>& task) {
  if (parallel(p)) {
    ThreadPool::instance().run_tasks(tasks, task);
  } else {
    for (int64_t i = 0; i < tasks; ++i) task(i);
  }
}

}  // namespace

void luminosity_contraction(const LuminosityProblem& p, float* out) {
  const int64_t size = p.replicas * p.data;
  std::fill(out, out + size, 0.0f);
  if (size == 0 || p.x == 0 || p.channels == 0) return;
  const int64_t rows = block_rows(p);
  const int64_t blocks = (p.replicas + rows - 1) / rows;
  // Channel groups add into their own copy of the output; replica blocks write disjoint rows.
  // Several groups per thread, handed out as threads free up, so that a thread the OS delays
  // leaves its share to the others.
  const int64_t groups =
      parallel(p) ? std::min<int64_t>(4 * ThreadPool::instance().threads(), p.channels) : 1;
  std::vector<float> partials((groups - 1) * size, 0.0f);
  const int64_t xx = p.x * p.x;
  run(p, groups * blocks, [&](int64_t task) {
    const int64_t group = task / blocks;
    const int64_t r0 = task % blocks * rows;
    const int64_t r1 = std::min(p.replicas, r0 + rows);
    float* target = group == 0 ? out : partials.data() + (group - 1) * size;
    thread_local std::vector<float> buffer;
    buffer.resize(rows * xx);
    for (int64_t c = p.channels * group / groups; c < p.channels * (group + 1) / groups; ++c) {
      form_luminosity(p, c, r0, r1, buffer.data());
      sgemm(false, false, r1 - r0, p.data, xx, buffer.data(), xx, fk_block(p, c), p.data,
            target + r0 * p.data, p.data, 1.0f);
    }
  });
  for (int64_t group = 1; group < groups; ++group) {
    const float* partial = partials.data() + (group - 1) * size;
    for (int64_t i = 0; i < size; ++i) out[i] += partial[i];
  }
}

void luminosity_contraction_grad(const LuminosityProblem& p, const float* dy, float* d_first,
                                 float* d_second) {
  const int64_t factors = p.replicas * p.x * p.channels;
  if (p.data == 0) {
    std::fill(d_first, d_first + factors, 0.0f);
    std::fill(d_second, d_second + factors, 0.0f);
    return;
  }
  if (factors == 0) return;
  const int64_t rows = block_rows(p);
  const int64_t blocks = (p.replicas + rows - 1) / rows;
  const int64_t xx = p.x * p.x;
  // Each (channel, replica block) writes its own entries of d_first and d_second.
  run(p, p.channels * blocks, [&](int64_t task) {
    const int64_t c = task / blocks;
    const int64_t r0 = task % blocks * rows;
    const int64_t r1 = std::min(p.replicas, r0 + rows);
    thread_local std::vector<float> buffer;
    buffer.resize(rows * xx);
    sgemm(false, true, r1 - r0, xx, p.data, dy + r0 * p.data, p.data, fk_block(p, c), p.data,
          buffer.data(), xx);
    std::vector<float> f1(p.x), f2(p.x), g1(p.x), g2(p.x);
    for (int64_t r = r0; r < r1; ++r) {
      gather(p.first, p, r, c, f1.data());
      gather(p.second, p, r, c, f2.data());
      reduce_block(buffer.data() + (r - r0) * xx, f1.data(), f2.data(), p.x, g1.data(), g2.data());
      scatter(g1.data(), p, r, c, d_first);
      scatter(g2.data(), p, r, c, d_second);
    }
  });
}

}  // namespace partonfit
