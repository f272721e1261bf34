#include "luminosity.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>
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

// Contractions below this many multiply-adds run on the calling thread.
constexpr int64_t kParallelMultiplyAdds = int64_t{1} << 21;

// The layout the kernels read: every (flavour or channel, x) row holds the replicas contiguously,
// in slots counted in multiples of 8 so that every row starts an 8-float vector; slots past the
// replicas hold zeros.
struct Sizes {
  int64_t replicas;
  int64_t x;
  int64_t flavours;
  int64_t data;
  int64_t slots;  // replicas rounded up to a multiple of 8
};

Sizes sizes_of(const LuminosityProblem& p) {
  constexpr int64_t multiple = kWidth<Lanes8>;
  return {p.replicas, p.x, p.flavours, p.data, (p.replicas + multiple - 1) / multiple * multiple};
}

// How the kernels tile a table: the replicas of a block sit in the lanes of 16-float vectors (an
// AVX-512 register, wide_vectors in simd.h), with the slots' last 8 in an 8-float vector where
// the 16-float ones leave them over, or all in 8-float ones (AVX2, or fewer than 16 slots).
struct Tiling {
  bool wide = false;
};

Tiling tiling(const Sizes& s) { return {wide_vectors() && s.slots >= kWidth<Lanes16>}; }

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

// Floats that start on a cache line, kept by the thread that owns the buffer and reused from
// call to call: the kernels' vector loads then never straddle two lines, and where the buffers
// fall does not depend on what the process allocated before.
class LaneBuffer {
 public:
  // Room for at least `count` floats, of unspecified values.
  float* floats(int64_t count) {
    if (count > capacity_) {
      constexpr int64_t kLine = 64;
      const int64_t bytes =
          (count * static_cast<int64_t>(sizeof(float)) + kLine - 1) / kLine * kLine;
      data_.reset(static_cast<float*>(std::aligned_alloc(kLine, static_cast<size_t>(bytes))));
      if (data_ == nullptr) throw std::bad_alloc();
      capacity_ = count;
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  std::unique_ptr<float, Free> data_;
  int64_t capacity_ = 0;
};

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
  thread_local LaneBuffer lanes;
  float* const target = lanes.floats(s.flavours * s.x * s.slots);
  to_lanes(p.pdf, s, in_parallel, target);
  return target;
}

// The bounds of tile `index` of `tiles` near-equal tiles of [0, count).
PARTONFIT_INLINE int64_t tile_start(int64_t count, int64_t tiles, int64_t index) {
  return count * index / tiles;
}

// The L2 cache of one core the tiling plans for.
constexpr int64_t kL2Bytes = int64_t{1} << 20;

// Asks for values [0, count) of `values` to be brought into the L1 cache, a line at a time.
PARTONFIT_INLINE void prefetch(const float* values, int64_t count) {
  constexpr int64_t kLine = 64 / sizeof(float);
  for (int64_t i = 0; i < count; i += kLine) __builtin_prefetch(values + i);
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

// The register tiles: kVectors vectors of replicas (counting a tile's last, 8-float vector as one)
// by kRows data points (forward) or x2 points (backward). Each step loads kVectors vectors and
// broadcasts kRows FK values for kRows · kVectors multiply-adds, as a matrix product's
// micro-kernel does: 4 · 6 = 24 of AVX-512's 32 registers accumulate while 4 hold the replica
// vectors, and 2 · 6 of AVX2's 16.
template <typename V, int kVectors>
constexpr int kRows =
    kWidth<V> == kWidth<Lanes8> ? 6 : (kVectors == 4 ? 6 : (kVectors == 3 ? 8 : 12));

// The most vectors of replicas one register tile holds.
template <typename V>
constexpr int kMaxVectors = kWidth<V> == kWidth<Lanes8> ? 2 : 4;

// The vector of a tile's last 8 slots where vectors of V leave them over.
using Tail = Lanes8;

// The tiles unroll every loop over their vectors, rows and data points (#pragma GCC unroll), so
// that their sums stay in registers: with the Tail vector GCC left the larger tiles' loops rolled
// and their sums on the stack (100 replicas, 185 data points: backward 88 → 47 GFLOP/s).

// Calls block(std::integral_constant<int, kVectors>(), std::integral_constant<bool, kTail>(), r)
// over the slots in groups of kVectors vectors of V, the last group with the slots' last 8 in a
// Tail vector after them where V's vectors leave 8 over (kTail); r is the group's first slot.
// A group holds at most kMaxVectors<V> vectors, the Tail counted as one; the groups are
// near-equal, the last the smallest. The block must be always inlined, so that it is compiled
// for its caller's clone.
template <typename V, typename Block>
PARTONFIT_INLINE void for_replica_groups(const Sizes& s, const Block& block) {
  constexpr int64_t width = kWidth<V>;
  const int64_t vectors = s.slots / width;
  const bool tail = s.slots % width != 0;
  const int64_t groups = (vectors + tail + kMaxVectors<V> - 1) / kMaxVectors<V>;
  for (int64_t g = 0; g < groups; ++g) {
    const int64_t v0 = vectors - vectors * (groups - g) / groups;
    const int64_t count = vectors * (groups - g) / groups - vectors * (groups - g - 1) / groups;
    const int64_t r = v0 * width;
    const auto with_tail = [&](auto has_tail) __attribute__((always_inline)) {
      constexpr bool kTail = decltype(has_tail)::value;
      // A group with the Tail has at most 3 vectors of V.
      if constexpr (kMaxVectors<V> == 4) {
        if constexpr (!kTail) {
          if (count == 4) return block(std::integral_constant<int, 4>(), has_tail, r);
        }
        if (count == 3) return block(std::integral_constant<int, 3>(), has_tail, r);
      }
      if (count == 2) return block(std::integral_constant<int, 2>(), has_tail, r);
      block(std::integral_constant<int, 1>(), has_tail, r);
    };
    if constexpr (width > kWidth<Tail>) {
      if (tail && g + 1 == groups) {
        with_tail(std::true_type());
        continue;
      }
    }
    with_tail(std::false_type());
  }
}

// out[n, r] += Σ_a first[a, r] Σ_b second[b, r] · fk[a, b, n] over the x1 points a in x1, for
// kData data points n from n0 and kVectors vectors of replicas r, then with kTail a Tail vector:
// the inner sum runs in registers, and each x1 point's share is added into out. first, second
// (x, slots) and out (data, slots) start at the group's first replica. With a support (the
// channel's; null: dense) each x1 point sums over the x2 points where the tile's columns can be
// non-zero, and skips the points where all are zero.
template <typename V, int kVectors, bool kTail, int kData>
PARTONFIT_INLINE void forward_tile(const float* fk, const int32_t* support, const float* first,
                                   const float* second, const Sizes& s, Range x1, int64_t n0,
                                   float* out) {
  constexpr int64_t width = kWidth<V>;
  constexpr int64_t tail = kVectors * width;  // the Tail vector's first slot
  const int64_t slots = s.slots;
  const int64_t data = s.data;
  for (int64_t a = x1.begin; a < x1.end; ++a) {
    const Range x2 = support == nullptr ? Range{0, s.x}
                                        : x2_range(support + a * data * 2, s, n0, n0 + kData);
    if (x2.begin >= x2.end) continue;
    V inner[kData][kVectors] = {};
    Tail inner_tail[kData] = {};
    const float* values = fk + (a * s.x + x2.begin) * data + n0;
    const float* factors = second + x2.begin * slots;
    for (int64_t b = x2.begin; b < x2.end; ++b) {
      V factor[kVectors];
      #pragma GCC unroll 16
      for (int v = 0; v < kVectors; ++v) factor[v] = load<V>(factors + v * width);
      const Tail factor_tail = kTail ? load<Tail>(factors + tail) : Tail{};
      #pragma GCC unroll 16
      for (int t = 0; t < kData; ++t) {
        const float value = values[t];
        #pragma GCC unroll 16
        for (int v = 0; v < kVectors; ++v) inner[t][v] += factor[v] * value;
        if constexpr (kTail) inner_tail[t] += factor_tail * value;
      }
      values += data;
      factors += slots;
    }
    V first_a[kVectors];
    #pragma GCC unroll 16
    for (int v = 0; v < kVectors; ++v) first_a[v] = load<V>(first + a * slots + v * width);
    #pragma GCC unroll 16
    for (int t = 0; t < kData; ++t) {
      float* const target = out + (n0 + t) * slots;
      #pragma GCC unroll 16
      for (int v = 0; v < kVectors; ++v) {
        store(target + v * width, load<V>(target + v * width) + first_a[v] * inner[t][v]);
      }
      if constexpr (kTail) {
        store(target + tail,
              load<Tail>(target + tail) + load<Tail>(first + a * slots + tail) * inner_tail[t]);
      }
    }
  }
}

// forward_tile for a run-time tile width in [1, kData].
template <typename V, int kVectors, bool kTail, int kData>
PARTONFIT_INLINE void forward_tile_of(int64_t width, const float* fk, const int32_t* support,
                                      const float* first, const float* second, const Sizes& s,
                                      Range x1, int64_t n0, float* out) {
  if constexpr (kData > 1) {
    if (width < kData) {
      return forward_tile_of<V, kVectors, kTail, kData - 1>(width, fk, support, first, second,
                                                            s, x1, n0, out);
    }
  }
  forward_tile<V, kVectors, kTail, kData>(fk, support, first, second, s, x1, n0, out);
}

// Every data point of one replica group over the x1 points x1, in tiles.
template <typename V, int kVectors, bool kTail>
PARTONFIT_INLINE void forward_group(const float* fk, const int32_t* support, const float* first,
                                    const float* second, const Sizes& s, Range x1, float* out) {
  constexpr int kData = kRows<V, kVectors + kTail>;
  const int64_t tiles = (s.data + kData - 1) / kData;
  for (int64_t i = 0; i < tiles; ++i) {
    const int64_t n0 = tile_start(s.data, tiles, i);
    forward_tile_of<V, kVectors, kTail, kData>(tile_start(s.data, tiles, i + 1) - n0, fk,
                                               support, first, second, s, x1, n0, out);
  }
}

// One channel's block fk (x, x, data) for all replicas, added into out (data, slots); support is
// the channel's (null: dense). A block that fits half the L2 cache (kL2Bytes) is read replica
// group by replica group, tile by tile of data points, and stays in the cache from group to
// group. A larger one is read x1 point by x1 point, every group and tile of the point's
// (x2, data) rows while the next point's rows are prefetched: reading tile by tile would go
// over the whole block in strides of a row, and miss the cache on every row.
template <typename V>
PARTONFIT_INLINE void forward_channel_of(const float* fk, const int32_t* support,
                                         const float* first, const float* second, const Sizes& s,
                                         float* out) {
  const int64_t rows = s.x * s.data;
  if (2 * s.x * rows * static_cast<int64_t>(sizeof(float)) <= kL2Bytes) {
    for_replica_groups<V>(s, [&](auto vectors, auto tail, int64_t r)
                                 __attribute__((always_inline)) {
      forward_group<V, decltype(vectors)::value, decltype(tail)::value>(
          fk, support, first + r, second + r, s, Range{0, s.x}, out + r);
    });
    return;
  }
  for (int64_t a = 0; a < s.x; ++a) {
    if (a + 1 < s.x) prefetch(fk + (a + 1) * rows, rows);
    for_replica_groups<V>(s, [&](auto vectors, auto tail, int64_t r)
                                 __attribute__((always_inline)) {
      forward_group<V, decltype(vectors)::value, decltype(tail)::value>(
          fk, support, first + r, second + r, s, Range{a, a + 1}, out + r);
    });
  }
}

// The 16-lane kernels are compiled for AVX-512 alone (PARTONFIT_WIDE), where they run, and only
// in a build with the AVX-512 clones: without them wide_vectors() never holds, and compiled for a
// narrower target their 16-lane tiles took this file minutes to compile. The 8-lane ones are
// compiled for every clone.
#ifdef PARTONFIT_HAS_AVX512_CLONES
PARTONFIT_WIDE void forward_channel_wide(const float* fk, const int32_t* support,
                                         const float* first, const float* second, const Sizes& s,
                                         float* out) {
  forward_channel_of<Lanes16>(fk, support, first, second, s, out);
}
#endif

PARTONFIT_CLONES void forward_channel_narrow(const float* fk, const int32_t* support,
                                             const float* first, const float* second,
                                             const Sizes& s, float* out) {
  forward_channel_of<Lanes8>(fk, support, first, second, s, out);
}

void forward_channel(const float* fk, const int32_t* support, const float* first,
                     const float* second, const Sizes& s, const Tiling& tiling, float* out) {
#ifdef PARTONFIT_HAS_AVX512_CLONES
  if (tiling.wide) {
    forward_channel_wide(fk, support, first, second, s, out);
    return;
  }
#endif
  forward_channel_narrow(fk, support, first, second, s, out);
}

// For one x1 point a, kX consecutive x2 points from b0 and kVectors vectors of replicas, then
// with kTail a Tail vector: g[b] = Σ_n fk[a, b, n] · dy[n, r], then d_first[a] += Σ_b g[b] ·
// second[b] and d_second[b] += g[b] · first[a]. dy (data, slots), first, second, d_first and
// d_second (x, slots) start at the group's first replica; each FK value, broadcast once, serves
// every vector.
template <typename V, int kVectors, bool kTail, int kX>
PARTONFIT_INLINE void backward_tile(const float* fk, const float* dy, const float* first,
                                    const float* second, const Sizes& s, int64_t a, int64_t b0,
                                    float* d_first, float* d_second) {
  constexpr int64_t width = kWidth<V>;
  constexpr int64_t tail = kVectors * width;  // the Tail vector's first slot
  // Row j of the tile is read as bases[j / 3][(j % 3) · data]: with the row stride in one
  // register, three rows share a base address, so the tile's addresses fit in a few registers.
  constexpr int kBases = (kX + 2) / 3;
  const int64_t data = s.data;
  const float* bases[kBases];
  #pragma GCC unroll 16
  for (int k = 0; k < kBases; ++k) bases[k] = fk + (a * s.x + b0 + 3 * k) * data;
  V g[kX][kVectors];
  Tail g_tail[kX];
  #pragma GCC unroll 16
  for (int j = 0; j < kX; ++j) {
    #pragma GCC unroll 16
    for (int v = 0; v < kVectors; ++v) g[j][v] = V{};
    g_tail[j] = Tail{};
  }
  const float* gradients = dy;
  for (int64_t n = 0; n < data; ++n) {
    // Opaque to the compiler, so that it addresses the rows from the bases instead of keeping a
    // pointer per row (which spills general registers in the larger tiles).
    #pragma GCC unroll 16
    for (int k = 0; k < kBases; ++k) asm("" : "+r"(bases[k]));
    V gradient[kVectors];
    #pragma GCC unroll 16
    for (int v = 0; v < kVectors; ++v) gradient[v] = load<V>(gradients + v * width);
    const Tail gradient_tail = kTail ? load<Tail>(gradients + tail) : Tail{};
    #pragma GCC unroll 16
    for (int j = 0; j < kX; ++j) {
      const float value = bases[j / 3][(j % 3) * data];
      #pragma GCC unroll 16
      for (int v = 0; v < kVectors; ++v) g[j][v] += gradient[v] * value;
      if constexpr (kTail) g_tail[j] += gradient_tail * value;
    }
    #pragma GCC unroll 16
    for (int k = 0; k < kBases; ++k) ++bases[k];
    gradients += s.slots;
  }
  // d_first[a] += Σ_j g[j] · second[b0 + j] and d_second[b0 + j] += g[j] · first[a], vector by
  // vector.
  #pragma GCC unroll 16
  for (int v = 0; v < kVectors; ++v) {
    const int64_t r = v * width;
    const V first_a = load<V>(first + a * s.slots + r);
    V sum = load<V>(d_first + a * s.slots + r);
    #pragma GCC unroll 16
    for (int j = 0; j < kX; ++j) {
      const int64_t b = (b0 + j) * s.slots + r;
      sum += g[j][v] * load<V>(second + b);
      store(d_second + b, load<V>(d_second + b) + g[j][v] * first_a);
    }
    store(d_first + a * s.slots + r, sum);
  }
  if constexpr (kTail) {
    const Tail first_a = load<Tail>(first + a * s.slots + tail);
    Tail sum = load<Tail>(d_first + a * s.slots + tail);
    #pragma GCC unroll 16
    for (int j = 0; j < kX; ++j) {
      const int64_t b = (b0 + j) * s.slots + tail;
      sum += g_tail[j] * load<Tail>(second + b);
      store(d_second + b, load<Tail>(d_second + b) + g_tail[j] * first_a);
    }
    store(d_first + a * s.slots + tail, sum);
  }
}

// backward_tile for a run-time tile width in [1, kX].
template <typename V, int kVectors, bool kTail, int kX>
PARTONFIT_INLINE void backward_tile_of(int64_t width, const float* fk, const float* dy,
                                       const float* first, const float* second, const Sizes& s,
                                       int64_t a, int64_t b0, float* d_first, float* d_second) {
  if constexpr (kX > 1) {
    if (width < kX) {
      return backward_tile_of<V, kVectors, kTail, kX - 1>(width, fk, dy, first, second, s, a, b0,
                                                          d_first, d_second);
    }
  }
  backward_tile<V, kVectors, kTail, kX>(fk, dy, first, second, s, a, b0, d_first, d_second);
}

// The resident backward, for tables of few data points. The tile backward above adds each of
// its sums into d_first and d_second once it has summed over the data points, at 2
// multiply-adds and 3 memory operations per sum, which few data points do not amortise. Here the
// gradients dy of up to kResidentData data points stay in registers for one vector of replicas,
// with the d_second sums of kResidentX x2 points, while the tile runs over every x1 point a:
// g[b] = Σ_n fk[a, b, n] · dy[n] for each x2 point b of the tile, then d_first[a] += Σ_b g[b] ·
// second[b] (added to memory once per x1 point) and d_second[b] += g[b] · first[a] (in registers,
// added to memory once per tile).
// It needs AVX-512's 32 registers: with AVX2's 16 (8 data points, 4 x2 points) it was slower
// than the tile backward from 8 data points on.
constexpr int kResidentData = 16;
constexpr int kResidentX = 10;

// Tables of at most this many data points take the resident backward where the replicas fill
// more than one 16-lane vector (single thread, 50 x, 100 replicas: 3 data points 26 → 51
// GFLOP/s, 16 points 65 → 87, 48 points 73 → 87, 64 points 76 → 86; at 89 points it was slower,
// 79 → 68). For one vector the tile backward was faster from 9 data points on (10 replicas: the
// bench's 42 tables' backward 66 ms against 77): with no other vector to share the FK rows it
// reads, the resident backward waits on memory.
constexpr int64_t kResidentTable = 64;

// One resident tile: data points [n0, n0 + kData) and x2 points [b0, b0 + kX) for one vector of
// replicas VT, over every x1 point whose x2 range (x2: by x1 point for these data points; null:
// dense) meets the tile. The first `skip` x2 points of the tile belong to the tile before it,
// and are left out. dy (data, slots), first, second, d_first and d_second (x, slots) start at
// the vector's first replica.
template <typename VT, int kData, int kX>
PARTONFIT_INLINE void resident_tile(const float* fk, const Range* x2, const float* dy,
                                    const float* first, const float* second, const Sizes& s,
                                    int64_t n0, int64_t b0, int64_t skip, float* d_first,
                                    float* d_second) {
  const int64_t data = s.data;
  const int64_t slots = s.slots;
  VT gradient[kData];
  for (int t = 0; t < kData; ++t) gradient[t] = load<VT>(dy + (n0 + t) * slots);
  // second[b] (zero for the x2 points left out) and the d_second sums.
  VT factor[kX];
  VT sums[kX];
  for (int j = 0; j < kX; ++j) {
    factor[j] = j < skip ? VT{} : load<VT>(second + (b0 + j) * slots);
    sums[j] = VT{};
  }
  // As in backward_tile, row j is read as bases[j / 3][(j % 3) · data].
  constexpr int kBases = (kX + 2) / 3;
  for (int64_t a = 0; a < s.x; ++a) {
    if (x2 != nullptr && (x2[a].end <= b0 + skip || x2[a].begin >= b0 + kX)) continue;
    const float* bases[kBases];
    for (int k = 0; k < kBases; ++k) {
      bases[k] = fk + (a * s.x + b0 + 3 * k) * data + n0;
      asm("" : "+r"(bases[k]));
    }
    const VT first_a = load<VT>(first + a * slots);
    VT sum = VT{};
    #pragma GCC unroll 16
    for (int j = 0; j < kX; ++j) {
      const float* values = bases[j / 3] + (j % 3) * data;
      VT g = gradient[0] * values[0];
      #pragma GCC unroll 16
      for (int t = 1; t < kData; ++t) g += gradient[t] * values[t];
      sum += g * factor[j];
      sums[j] += g * first_a;
    }
    float* const target = d_first + a * slots;
    store(target, load<VT>(target) + sum);
  }
  for (int j = static_cast<int>(skip); j < kX; ++j) {
    float* const target = d_second + (b0 + j) * slots;
    store(target, load<VT>(target) + sums[j]);
  }
}

// resident_tile for a run-time count of data points in [1, kData].
template <typename VT, int kData, int kX>
PARTONFIT_INLINE void resident_tile_of(int64_t count, const float* fk, const Range* x2,
                                       const float* dy, const float* first, const float* second,
                                       const Sizes& s, int64_t n0, int64_t b0, int64_t skip,
                                       float* d_first, float* d_second) {
  if constexpr (kData > 1) {
    if (count < kData) {
      return resident_tile_of<VT, kData - 1, kX>(count, fk, x2, dy, first, second, s, n0, b0,
                                                 skip, d_first, d_second);
    }
  }
  resident_tile<VT, kData, kX>(fk, x2, dy, first, second, s, n0, b0, skip, d_first, d_second);
}

// One channel for all replicas by the resident backward, for at least kResidentX x points: the
// data points in near-equal chunks of at most kResidentData, the x2 points in tiles of
// kResidentX (the last one moved back to end at the last x2 point), and the replicas vector by
// vector, a last 8-lane vector after the 16-lane ones. support is the channel's (null: dense);
// d_first and d_second (x, slots) start zeroed.
PARTONFIT_INLINE void backward_resident_channel(const float* fk, const int32_t* support,
                                                const float* dy, const float* first,
                                                const float* second, const Sizes& s,
                                                float* d_first, float* d_second) {
  constexpr int kData = kResidentData;
  constexpr int kX = kResidentX;
  constexpr int64_t width = kWidth<Lanes16>;
  thread_local std::vector<Range> ranges;
  const int64_t chunks = (s.data + kData - 1) / kData;
  const int64_t tiles = (s.x + kX - 1) / kX;
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    const int64_t n0 = tile_start(s.data, chunks, chunk);
    const int64_t count = tile_start(s.data, chunks, chunk + 1) - n0;
    const Range* x2 = nullptr;
    if (support != nullptr) {
      ranges.resize(static_cast<size_t>(s.x));
      for (int64_t a = 0; a < s.x; ++a) {
        ranges[a] = x2_range(support + a * s.data * 2, s, n0, n0 + count);
      }
      x2 = ranges.data();
    }
    for (int64_t i = 0; i < tiles; ++i) {
      const int64_t b0 = std::min(i * kX, s.x - kX);
      const int64_t skip = i * kX - b0;
      int64_t r = 0;
      for (; r + width <= s.slots; r += width) {
        resident_tile_of<Lanes16, kData, kX>(count, fk, x2, dy + r, first + r, second + r, s,
                                             n0, b0, skip, d_first + r, d_second + r);
      }
      if (r < s.slots) {
        resident_tile_of<Tail, kData, kX>(count, fk, x2, dy + r, first + r, second + r, s, n0,
                                            b0, skip, d_first + r, d_second + r);
      }
    }
  }
}

// The smallest (x2, data) block of one x1 point, in floats, whose successor the backward
// prefetches in one burst: half the L1 cache. Smaller blocks are left to the hardware prefetcher,
// which kept up with them (single thread, 50 x, 100 replicas: 36 data points 68 → 72 GFLOP/s
// without the burst; 100 and 180 points 71 → 77 and 77 → 82 with it).
constexpr int64_t kPrefetchedRows = 4096;

// One channel for all replicas, x1 point by x1 point so that the FK rows of one point stay in
// the L1 cache while every replica group passes over them, and the next point's rows are
// prefetched meanwhile where they are many; d_first and d_second (x, slots) start zeroed.
// support is the channel's (null: dense).
template <typename V>
PARTONFIT_INLINE void backward_channel_of(const float* fk, const int32_t* support,
                                          const float* dy, const float* first,
                                          const float* second, const Sizes& s, float* d_first,
                                          float* d_second) {
  const int64_t rows = s.x * s.data;
  for (int64_t a = 0; a < s.x; ++a) {
    if (a + 1 < s.x && rows >= kPrefetchedRows) prefetch(fk + (a + 1) * rows, rows);
    const Range x2 =
        x2_range(support == nullptr ? nullptr : support + a * s.data * 2, s, 0, s.data);
    const int64_t width = x2.end - x2.begin;
    if (width <= 0) continue;
    for_replica_groups<V>(s, [&](auto vectors, auto tail, int64_t r)
                                 __attribute__((always_inline)) {
      constexpr int kVectors = decltype(vectors)::value;
      constexpr bool kTail = decltype(tail)::value;
      constexpr int kX = kRows<V, kVectors + kTail>;
      const int64_t tiles = (width + kX - 1) / kX;
      for (int64_t i = 0; i < tiles; ++i) {
        const int64_t b0 = x2.begin + tile_start(width, tiles, i);
        backward_tile_of<V, kVectors, kTail, kX>(x2.begin + tile_start(width, tiles, i + 1) - b0,
                                                 fk, dy + r, first + r, second + r, s, a, b0,
                                                 d_first + r, d_second + r);
      }
    });
  }
}

#ifdef PARTONFIT_HAS_AVX512_CLONES
PARTONFIT_WIDE void backward_channel_wide(const float* fk, const int32_t* support,
                                          const float* dy, const float* first,
                                          const float* second, const Sizes& s, float* d_first,
                                          float* d_second) {
  if (s.data <= kResidentTable && s.x >= kResidentX && s.slots > kWidth<Lanes16>) {
    backward_resident_channel(fk, support, dy, first, second, s, d_first, d_second);
  } else {
    backward_channel_of<Lanes16>(fk, support, dy, first, second, s, d_first, d_second);
  }
}
#endif

PARTONFIT_CLONES void backward_channel_narrow(const float* fk, const int32_t* support,
                                              const float* dy, const float* first,
                                              const float* second, const Sizes& s,
                                              float* d_first, float* d_second) {
  backward_channel_of<Lanes8>(fk, support, dy, first, second, s, d_first, d_second);
}

void backward_channel(const float* fk, const int32_t* support, const float* dy,
                      const float* first, const float* second, const Sizes& s,
                      const Tiling& tiling, float* d_first, float* d_second) {
#ifdef PARTONFIT_HAS_AVX512_CLONES
  if (tiling.wide) {
    backward_channel_wide(fk, support, dy, first, second, s, d_first, d_second);
    return;
  }
#endif
  backward_channel_narrow(fk, support, dy, first, second, s, d_first, d_second);
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
  const Tiling tiles = tiling(s);
  const bool in_parallel = parallel(p);
  const float* const lanes_of_pdf = pdf_lanes(p, s, in_parallel);
  const int64_t row = s.x * s.slots;
  // Channel groups add into their own (data, slots) sums; several groups per thread, handed out
  // as threads free up, so that a thread the OS delays leaves its share to the others.
  const int64_t groups =
      in_parallel ? std::min<int64_t>(4 * ThreadPool::instance().threads(), p.channels) : 1;
  const int64_t lanes = s.data * s.slots;
  thread_local LaneBuffer sum_buffer;
  float* const sums = sum_buffer.floats(groups * lanes);
  std::fill(sums, sums + groups * lanes, 0.0f);
  run(in_parallel, groups, [&](int64_t group) {
    for (int64_t c = p.channels * group / groups; c < p.channels * (group + 1) / groups; ++c) {
      forward_channel(fk_block(p, c), support_block(p, c), lanes_of_pdf + p.first_flavour[c] * row,
                      lanes_of_pdf + p.second_flavour[c] * row, s, tiles,
                      sums + group * lanes);
    }
  });
  for (int64_t group = 0; group < groups; ++group) {
    const float* sum = sums + group * lanes;
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
  const Tiling tiles = tiling(s);
  const bool in_parallel = parallel(p);
  const float* const lanes_of_pdf = pdf_lanes(p, s, in_parallel);
  const int64_t row = s.x * s.slots;
  // The calling thread's buffers, reused from call to call (the tasks see them through pointers):
  // dy in lanes, and each channel's gradients with respect to its two factors.
  thread_local LaneBuffer dy_buffer, gradient_buffer;
  float* const dy_lanes = dy_buffer.floats(s.data * s.slots);
  std::fill(dy_lanes, dy_lanes + s.data * s.slots, 0.0f);
  for (int64_t r = 0; r < p.replicas; ++r) {
    for (int64_t n = 0; n < p.data; ++n) dy_lanes[n * s.slots + r] = dy[r * p.data + n];
  }
  float* const first_gradient = gradient_buffer.floats(2 * p.channels * row);
  float* const second_gradient = first_gradient + p.channels * row;
  run(in_parallel, p.channels, [&](int64_t c) {
    std::fill(first_gradient + c * row, first_gradient + (c + 1) * row, 0.0f);
    std::fill(second_gradient + c * row, second_gradient + (c + 1) * row, 0.0f);
    backward_channel(fk_block(p, c), support_block(p, c), dy_lanes, lanes_of_pdf + p.first_flavour[c] * row,
                     lanes_of_pdf + p.second_flavour[c] * row, s, tiles, first_gradient + c * row,
                     second_gradient + c * row);
  });
  // Per flavour, the sum of the gradients of the factors it supplies, then back to the PDF's
  // layout.
  thread_local LaneBuffer flavour_buffer;
  float* const flavour_gradient = flavour_buffer.floats(s.flavours * row);
  std::fill(flavour_gradient, flavour_gradient + s.flavours * row, 0.0f);
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
