#include "luminosity.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "luminosity_planes.h"
#include "simd.h"
#include "vectors.h"
#include "thread_pool.h"

// Multiply-adds as fused multiply-adds where the target has them. The vector types are only
// passed between always-inlined functions, so their ABI (-Wpsabi) never matters.
#pragma GCC optimize("fp-contract=fast")
#pragma GCC diagnostic ignored "-Wpsabi"

namespace partonfit {

namespace {

// The replicas of a block sit in the lanes of one vector (vectors.h): 16 (an AVX-512 register)
// or 8 (an AVX2 register, and the last block when at most 8 replicas are left). Replica slots
// are counted in multiples of the narrow width; slots past `replicas` hold zeros.
constexpr int64_t kSlotMultiple = kWidth<Lanes8>;

// Contractions below this many multiply-adds run on the calling thread.
constexpr int64_t kParallelMultiplyAdds = int64_t{1} << 21;

// How the kernels tile a table: 16 replica lanes (AVX-512) or 8 (wide_vectors, simd.h), and with
// them the most data points whose forward accumulators stay in registers, 2 · 12 of AVX-512's 32
// or 2 · 6 of AVX2's 16.
struct Tiling {
  bool wide = false;
};

Tiling tiling() { return {wide_vectors()}; }

// The layout the kernels read: every (flavour or channel, x) row holds the replicas contiguously.
struct Sizes {
  int64_t replicas;
  int64_t x;
  int64_t flavours;
  int64_t data;
  int64_t slots;  // replicas rounded up to kSlotMultiple
};

Sizes sizes_of(const LuminosityProblem& p) {
  return {p.replicas, p.x, p.flavours, p.data,
          (p.replicas + kSlotMultiple - 1) / kSlotMultiple * kSlotMultiple};
}

bool parallel(const LuminosityProblem& p) {
  return p.replicas * p.x * p.x * p.channels * p.data >= kParallelMultiplyAdds;
}

void run(bool in_parallel, int64_t tasks, const std::function<void(int64_t)>& task) {
  if (in_parallel) {
    ThreadPool::instance().run_tasks(tasks, task);
  } else {
    for (int64_t i = 0; i < tasks; ++i) task(i);
  }
}

// lanes[(f · x + a) · slots + r] = pdf[(r · x + a) · flavours + f], zero for r ≥ replicas; split
// over x points across the pool when the contraction is.
void to_lanes(const float* pdf, const Sizes& s, bool in_parallel, float* lanes) {
  const auto layout = [&](int64_t a0, int64_t a1) {
    for (int64_t f = 0; f < s.flavours; ++f) {
      for (int64_t a = a0; a < a1; ++a) {
        float* target = lanes + (f * s.x + a) * s.slots;
        for (int64_t r = 0; r < s.replicas; ++r) target[r] = pdf[(r * s.x + a) * s.flavours + f];
        std::fill(target + s.replicas, target + s.slots, 0.0f);
      }
    }
  };
  if (in_parallel) {
    ThreadPool::instance().parallel_for(s.x, 1, layout);
  } else {
    layout(0, s.x);
  }
}

// pdf[(r · x + a) · flavours + f] = lanes[(f · x + a) · slots + r], the inverse of to_lanes for
// the replicas that exist.
void from_lanes(const float* lanes, const Sizes& s, bool in_parallel, float* pdf) {
  const auto layout = [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      float* target = pdf + r * s.x * s.flavours;
      for (int64_t a = 0; a < s.x; ++a) {
        for (int64_t f = 0; f < s.flavours; ++f) {
          target[a * s.flavours + f] = lanes[(f * s.x + a) * s.slots + r];
        }
      }
    }
  };
  if (in_parallel) {
    ThreadPool::instance().parallel_for(s.replicas, 1, layout);
  } else {
    layout(0, s.replicas);
  }
}

// The PDF in the kernels' layout (flavours, x, slots), in a buffer the calling thread reuses
// from call to call.
const float* pdf_lanes(const LuminosityProblem& p, const Sizes& s, bool in_parallel) {
  thread_local std::vector<float> lanes;
  lanes.resize(s.flavours * s.x * s.slots);
  to_lanes(p.pdf, s, in_parallel, lanes.data());
  return lanes.data();
}

// The bounds of tile `index` of `tiles` near-equal tiles of [0, count).
PARTONFIT_INLINE int64_t tile_start(int64_t count, int64_t tiles, int64_t index) {
  return count * index / tiles;
}

// A range [begin, end) of x2 points.
struct Range {
  int64_t begin;
  int64_t end;
};

// The x2 points where data points [n0, n1) of one (channel, x1 point) can be non-zero: the
// union of their supports (support_a: (data, 2), luminosity_support's layout), empty when
// every one is zero, and all of them when there is no support (a dense table).
PARTONFIT_INLINE Range x2_range(const int32_t* support_a, const Sizes& s, int64_t n0,
                                int64_t n1) {
  if (support_a == nullptr) return {0, s.x};
  Range x2{s.x, 0};
  for (int64_t n = n0; n < n1; ++n) {
    if (support_a[2 * n] < support_a[2 * n + 1]) {
      x2.begin = std::min<int64_t>(x2.begin, support_a[2 * n]);
      x2.end = std::max<int64_t>(x2.end, support_a[2 * n + 1]);
    }
  }
  return x2;
}

// out[n, r] += Σ_a first[a, r] Σ_b second[b, r] · fk[a, b, n] for kData data points n from n0
// and one vector of replicas r: the inner sum runs in kData registers, the outer in kData more.
// first, second (x, slots) and out (data, slots) start at the block's first replica. With a
// support (the channel's; null: dense) each x1 point sums over the x2 points where the tile's
// columns can be non-zero, and skips the points where all are zero.
template <typename V, int kData>
PARTONFIT_INLINE void forward_tile(const float* fk, const int32_t* support, const float* first,
                                   const float* second, const Sizes& s, int64_t n0, float* out) {
  V outer[kData] = {};
  for (int64_t a = 0; a < s.x; ++a) {
    const Range x2 = support == nullptr ? Range{0, s.x}
                                        : x2_range(support + a * s.data * 2, s, n0, n0 + kData);
    if (x2.begin >= x2.end) continue;
    V inner[kData] = {};
    const float* row = fk + a * s.x * s.data + n0;
    for (int64_t b = x2.begin; b < x2.end; ++b) {
      const V factor = load<V>(second + b * s.slots);
      const float* values = row + b * s.data;
      for (int t = 0; t < kData; ++t) inner[t] += factor * values[t];
    }
    const V factor = load<V>(first + a * s.slots);
    for (int t = 0; t < kData; ++t) outer[t] += factor * inner[t];
  }
  for (int t = 0; t < kData; ++t) {
    float* target = out + (n0 + t) * s.slots;
    store(target, load<V>(target) + outer[t]);
  }
}

// forward_tile for a run-time tile width in [1, kData].
template <typename V, int kData>
PARTONFIT_INLINE void forward_tile_of(int64_t width, const float* fk, const int32_t* support,
                                      const float* first, const float* second, const Sizes& s,
                                      int64_t n0, float* out) {
  if constexpr (kData > 1) {
    if (width < kData) {
      return forward_tile_of<V, kData - 1>(width, fk, support, first, second, s, n0, out);
    }
  }
  forward_tile<V, kData>(fk, support, first, second, s, n0, out);
}

// One channel and one replica vector, every data point, in tiles of at most kMaxData.
template <typename V, int kMaxData>
PARTONFIT_INLINE void forward_block(const float* fk, const int32_t* support, const float* first,
                                    const float* second, const Sizes& s, float* out) {
  const int64_t tiles = (s.data + kMaxData - 1) / kMaxData;
  for (int64_t i = 0; i < tiles; ++i) {
    const int64_t n0 = tile_start(s.data, tiles, i);
    forward_tile_of<V, kMaxData>(tile_start(s.data, tiles, i + 1) - n0, fk, support, first,
                                 second, s, n0, out);
  }
}

// One channel's block fk (x, x, data) for all replicas, added into out (data, slots); support is
// the channel's (null: dense).
PARTONFIT_CLONES void forward_channel(const float* fk, const int32_t* support, const float* first,
                                      const float* second, const Sizes& s, const Tiling& tiling,
                                      float* out) {
  int64_t r = 0;
  if (tiling.wide) {
    for (; r + kWidth<Lanes16> <= s.slots; r += kWidth<Lanes16>) {
      forward_block<Lanes16, 12>(fk, support, first + r, second + r, s, out + r);
    }
    for (; r < s.slots; r += kWidth<Lanes8>) {
      forward_block<Lanes8, 12>(fk, support, first + r, second + r, s, out + r);
    }
  } else {
    for (; r < s.slots; r += kWidth<Lanes8>) {
      forward_block<Lanes8, 6>(fk, support, first + r, second + r, s, out + r);
    }
  }
}

// x2 points the backward's register tile covers: its kX rows of the FK table are addressed
// through one index register each, and 2 · 6 accumulators leave AVX2's registers room too.
constexpr int kTileX = 6;

// For one x1 point a, kX consecutive x2 points from b0 and kVectors vectors of replicas:
// g[b] = Σ_n fk[a, b, n] · dy[n, r], then d_first[a] += Σ_b g[b] · second[b] and
// d_second[b] += g[b] · first[a]. dy (data, slots), second and d_second (x, slots) start at the
// tile's first replica; each FK value, broadcast once, serves every vector.
template <typename V, int kVectors, int kX>
PARTONFIT_INLINE void backward_tile(const float* fk, const float* dy, const V* first_a,
                                    const float* second, const Sizes& s, int64_t a, int64_t b0,
                                    V* d_first, float* d_second) {
  V g[kX][kVectors] = {};
  const float* rows = fk + (a * s.x + b0) * s.data;
  for (int64_t n = 0; n < s.data; ++n) {
    V gradient[kVectors];
    for (int v = 0; v < kVectors; ++v) gradient[v] = load<V>(dy + n * s.slots + v * kWidth<V>);
    for (int j = 0; j < kX; ++j) {
      const float value = rows[j * s.data + n];
      for (int v = 0; v < kVectors; ++v) g[j][v] += gradient[v] * value;
    }
  }
  for (int j = 0; j < kX; ++j) {
    for (int v = 0; v < kVectors; ++v) {
      const int64_t b = (b0 + j) * s.slots + v * kWidth<V>;
      d_first[v] += g[j][v] * load<V>(second + b);
      store(d_second + b, load<V>(d_second + b) + g[j][v] * first_a[v]);
    }
  }
}

// backward_tile for a run-time tile width in [1, kX].
template <typename V, int kVectors, int kX>
PARTONFIT_INLINE void backward_tile_of(int64_t width, const float* fk, const float* dy,
                                       const V* first_a, const float* second, const Sizes& s,
                                       int64_t a, int64_t b0, V* d_first, float* d_second) {
  if constexpr (kX > 1) {
    if (width < kX) {
      return backward_tile_of<V, kVectors, kX - 1>(width, fk, dy, first_a, second, s, a, b0,
                                                   d_first, d_second);
    }
  }
  backward_tile<V, kVectors, kX>(fk, dy, first_a, second, s, a, b0, d_first, d_second);
}

// One x1 point a, one channel and kVectors vectors of replicas: d_first[a], and d_second
// (x, slots), which starts zeroed, over the x2 points x2 where the point's rows can be non-zero.
template <typename V, int kVectors>
PARTONFIT_INLINE void backward_row(const float* fk, const float* dy, const float* first,
                                   const float* second, const Sizes& s, int64_t a, Range x2,
                                   float* d_first, float* d_second) {
  const int64_t width = x2.end - x2.begin;
  const int64_t tiles = (width + kTileX - 1) / kTileX;
  V first_a[kVectors], sum[kVectors] = {};
  for (int v = 0; v < kVectors; ++v) first_a[v] = load<V>(first + a * s.slots + v * kWidth<V>);
  for (int64_t i = 0; i < tiles; ++i) {
    const int64_t b0 = x2.begin + tile_start(width, tiles, i);
    backward_tile_of<V, kVectors, kTileX>(x2.begin + tile_start(width, tiles, i + 1) - b0, fk,
                                          dy, first_a, second, s, a, b0, sum, d_second);
  }
  for (int v = 0; v < kVectors; ++v) store(d_first + a * s.slots + v * kWidth<V>, sum[v]);
}

// Every replica of x1 point a from slot r on, in pairs of vectors while they last; returns the
// first slot left.
template <typename V>
PARTONFIT_INLINE int64_t backward_rows(const float* fk, const float* dy, const float* first,
                                       const float* second, const Sizes& s, int64_t a, Range x2,
                                       int64_t r, float* d_first, float* d_second) {
  constexpr int64_t width = kWidth<V>;
  for (; r + 2 * width <= s.slots; r += 2 * width) {
    backward_row<V, 2>(fk, dy + r, first + r, second + r, s, a, x2, d_first + r, d_second + r);
  }
  for (; r + width <= s.slots; r += width) {
    backward_row<V, 1>(fk, dy + r, first + r, second + r, s, a, x2, d_first + r, d_second + r);
  }
  return r;
}

// One channel for all replicas, x1 point by x1 point so that the FK rows of one point stay in
// the L1 cache while every replica vector passes over them. support is the channel's (null:
// dense).
PARTONFIT_CLONES void backward_channel(const float* fk, const int32_t* support, const float* dy,
                                       const float* first, const float* second, const Sizes& s,
                                       const Tiling& tiling, float* d_first, float* d_second) {
  for (int64_t a = 0; a < s.x; ++a) {
    const Range x2 =
        x2_range(support == nullptr ? nullptr : support + a * s.data * 2, s, 0, s.data);
    const int64_t r = tiling.wide ? backward_rows<Lanes16>(fk, dy, first, second, s, a, x2, 0,
                                                           d_first, d_second)
                                  : 0;
    backward_rows<Lanes8>(fk, dy, first, second, s, a, x2, r, d_first, d_second);
  }
}

// target[i] += values[i] for i < count.
PARTONFIT_CLONES void add_into(const float* values, int64_t count, float* target) {
#pragma omp simd
  for (int64_t i = 0; i < count; ++i) target[i] += values[i];
}

// Channel c's block of the FK table, (x, x, data).
const float* fk_block(const LuminosityProblem& p, int64_t c) {
  return p.fk + c * p.x * p.x * p.data;
}

// Channel c's block of the support, (x, data, 2), or null for a dense table.
const int32_t* support_block(const LuminosityProblem& p, int64_t c) {
  return p.support == nullptr ? nullptr : p.support + c * p.x * p.data * 2;
}

}  // namespace

void luminosity_support(const float* fk, int64_t channels, int64_t x, int64_t data,
                        int32_t* support) {
  const auto columns = [&](int64_t row0, int64_t row1) {
    for (int64_t row = row0; row < row1; ++row) {
      // row = c · x + a: its (x2, data) block of the table and (data, 2) block of the support.
      const float* block = fk + row * x * data;
      int32_t* target = support + row * data * 2;
      for (int64_t n = 0; n < data; ++n) {
        target[2 * n] = static_cast<int32_t>(x);
        target[2 * n + 1] = 0;
      }
      for (int64_t b = 0; b < x; ++b) {
        for (int64_t n = 0; n < data; ++n) {
          if (block[b * data + n] != 0.0f) {
            target[2 * n] = std::min(target[2 * n], static_cast<int32_t>(b));
            target[2 * n + 1] = static_cast<int32_t>(b + 1);
          }
        }
      }
      for (int64_t n = 0; n < data; ++n) {
        if (target[2 * n + 1] == 0) target[2 * n] = 0;
      }
    }
  };
  ThreadPool::instance().parallel_for(channels * x, 1, columns);
}

void luminosity_contraction(const LuminosityProblem& p, float* out) {
  if (p.replicas < kPlaneReplicas) return plane_contraction(p, out);
  const int64_t size = p.replicas * p.data;
  std::fill(out, out + size, 0.0f);
  if (size == 0 || p.x == 0 || p.channels == 0) return;
  const Sizes s = sizes_of(p);
  const Tiling tiles = tiling();
  const bool in_parallel = parallel(p);
  const float* const lanes_of_pdf = pdf_lanes(p, s, in_parallel);
  const int64_t row = s.x * s.slots;
  // Channel groups add into their own (data, slots) sums; several groups per thread, handed out
  // as threads free up, so that a thread the OS delays leaves its share to the others.
  const int64_t groups =
      in_parallel ? std::min<int64_t>(4 * ThreadPool::instance().threads(), p.channels) : 1;
  const int64_t lanes = s.data * s.slots;
  std::vector<float> sums(groups * lanes, 0.0f);
  run(in_parallel, groups, [&](int64_t group) {
    for (int64_t c = p.channels * group / groups; c < p.channels * (group + 1) / groups; ++c) {
      forward_channel(fk_block(p, c), support_block(p, c), lanes_of_pdf + p.first_flavour[c] * row,
                      lanes_of_pdf + p.second_flavour[c] * row, s, tiles,
                      sums.data() + group * lanes);
    }
  });
  for (int64_t group = 0; group < groups; ++group) {
    const float* sum = sums.data() + group * lanes;
    for (int64_t r = 0; r < p.replicas; ++r) {
      for (int64_t n = 0; n < p.data; ++n) out[r * p.data + n] += sum[n * s.slots + r];
    }
  }
}

void luminosity_contraction_grad(const LuminosityProblem& p, const float* dy, float* d_pdf) {
  if (p.replicas < kPlaneReplicas) return plane_contraction_grad(p, dy, d_pdf);
  const int64_t size = p.replicas * p.x * p.flavours;
  std::fill(d_pdf, d_pdf + size, 0.0f);
  if (p.data == 0 || size == 0 || p.channels == 0) return;
  const Sizes s = sizes_of(p);
  const Tiling tiles = tiling();
  const bool in_parallel = parallel(p);
  const float* const lanes_of_pdf = pdf_lanes(p, s, in_parallel);
  const int64_t row = s.x * s.slots;
  // The calling thread's buffers, reused from call to call (the tasks see them through pointers):
  // dy in lanes, and each channel's gradients with respect to its two factors.
  thread_local std::vector<float> dy_buffer, gradient_buffer;
  dy_buffer.assign(s.data * s.slots, 0.0f);
  float* const dy_lanes = dy_buffer.data();
  for (int64_t r = 0; r < p.replicas; ++r) {
    for (int64_t n = 0; n < p.data; ++n) dy_lanes[n * s.slots + r] = dy[r * p.data + n];
  }
  gradient_buffer.resize(2 * p.channels * row);
  float* const first_gradient = gradient_buffer.data();
  float* const second_gradient = first_gradient + p.channels * row;
  run(in_parallel, p.channels, [&](int64_t c) {
    std::fill(second_gradient + c * row, second_gradient + (c + 1) * row, 0.0f);
    backward_channel(fk_block(p, c), support_block(p, c), dy_lanes, lanes_of_pdf + p.first_flavour[c] * row,
                     lanes_of_pdf + p.second_flavour[c] * row, s, tiles, first_gradient + c * row,
                     second_gradient + c * row);
  });
  // Per flavour, the sum of the gradients of the factors it supplies, then back to the PDF's
  // layout.
  thread_local std::vector<float> flavour_buffer;
  flavour_buffer.assign(s.flavours * row, 0.0f);
  float* const flavour_gradient = flavour_buffer.data();
  const auto gather = [&](int64_t f0, int64_t f1) {
    for (int64_t f = f0; f < f1; ++f) {
      float* target = flavour_gradient + f * row;
      for (int64_t c = 0; c < p.channels; ++c) {
        if (p.first_flavour[c] == f) add_into(first_gradient + c * row, row, target);
        if (p.second_flavour[c] == f) add_into(second_gradient + c * row, row, target);
      }
    }
  };
  if (in_parallel) {
    ThreadPool::instance().parallel_for(s.flavours, 1, gather);
  } else {
    gather(0, s.flavours);
  }
  from_lanes(flavour_gradient, s, in_parallel, d_pdf);
}

}  // namespace partonfit
