#include "luminosity_planes.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "simd.h"
#include "thread_pool.h"
#include "vectors.h"

// Multiply-adds as fused multiply-adds where the target has them.
#pragma GCC optimize("fp-contract=fast")

namespace partonfit {

namespace {

// Replicas that share one pass over the table: each value read serves all of them.
constexpr int kMaxBlock = 4;

// Bytes of the level-1 data cache a chunk of the table may fill: five sixths of it (sysconf's
// figure, 32 KiB where it has none). Measured with 50 x points on a 48 KiB cache, chunks of 12
// vectors of 16 lanes ran 1.7× faster than chunks of 24, which overflow it.
int64_t chunk_bytes() {
  static const int64_t bytes = [] {
    const long size = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    return (size > 0 ? static_cast<int64_t>(size) : int64_t{32} << 10) * 5 / 6;
  }();
  return bytes;
}

// Bytes of the level-2 cache the halves pass's chunk of whole x2 points may fill: a quarter of it
// (sysconf's figure, 1 MiB where it has none), so that the second half contractions read the
// values the planes have just read from it. Measured with 50 x points on a 1 MiB cache, 1 and 4
// replicas ran 12 % faster with a quarter than with chunks the size of the level-1 cache's.
int64_t halves_chunk_bytes() {
  static const int64_t bytes = [] {
    const long size = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return (size > 0 ? static_cast<int64_t>(size) : int64_t{1} << 20) / 4;
  }();
  return bytes;
}

// Contractions below this many multiply-adds run on the calling thread. The planes read the
// table once per replica, so they do about 2 · 10⁹ multiply-adds a second on one thread (the
// nnpdf40 bench's 42 tables at R = 1): this is ~0.1 ms of work, far more than handing it to the
// pool costs. At 2²¹ the 22 tables of fewer than 21 data points ran on one thread, 15 % of the
// contraction at R = 1 and its largest serial part on many cores.
constexpr int64_t kParallelMultiplyAdds = int64_t{1} << 18;

// One channel's table and where its rows can be non-zero. Row a (x1 point) is the plane
// fk[a · size + j], j = b · data + n, of size x · data; it can be non-zero only in
// [begin[a], end[a]), and both are 0 for a row of zeros.
struct Plane {
  const float* fk;
  int64_t x;
  int64_t data;
  int64_t size;
  const int64_t* begin;
  const int64_t* end;
  const int64_t* first_point;  // (x) begin[a] / data: the rows' ranges in x2 points
  const int64_t* end_point;    // (x) end[a] / data
  const float* limit;          // one past the table's last value
};

// What a pass over a plane computes besides the planes: nothing, the row sums of the gradient
// (each row against weights second[r, b] · dy[r, n]), or the rows' second half contractions
// Σ_b second[r, b] · fk[a, b, n] that a later gradient reads instead of the table.
enum class Pass { kPlanes, kGradient, kHalves };

// Floats in a row of the halves pass's second half contractions: the data points rounded up to
// whole vectors.
constexpr int64_t halves_row(int64_t data) {
  return (data + kWidth<Lanes16> - 1) / kWidth<Lanes16> * kWidth<Lanes16>;
}

// The per-replica inputs and outputs of one block of kR replicas on one channel, each (kR, …)
// row-major: factors (kR, x) of the first PDF and planes (kR, size) written; for the gradient,
// weights (kR, size) read and row_sums (kR, x) of vectors added to; for the halves, the second
// PDF's factors seconds (kR, x) and the second half contractions halves (kR, x, halves_row(data))
// added to, lanes past the data points holding nothing of use.
struct Block {
  const float* factors;
  float* planes;
  const float* weights = nullptr;
  float* row_sums = nullptr;
  const float* seconds = nullptr;
  float* halves = nullptr;
};

// halves[r, a, q · width + i] += Σ_b seconds[r, b] · fk[a, b · data + q · width + i] for the
// kVectors vectors from q0 and b in [b0, b1), in registers: lanes past the data points gather
// the next x2 point's values, which are never read.
template <typename V, int kR, int kVectors>
PARTONFIT_INLINE void second_vectors(const Plane& plane, const Block& block, int64_t a, int64_t b0,
                                     int64_t b1, int64_t q0) {
  constexpr int64_t width = kWidth<V>;
  float* sums_of[kR];
  V sums[kR][kVectors];
  for (int r = 0; r < kR; ++r) {
    sums_of[r] = block.halves + (r * plane.x + a) * halves_row(plane.data) + q0 * width;
    for (int i = 0; i < kVectors; ++i) sums[r][i] = load<V>(sums_of[r] + i * width);
  }
  const float* row = plane.fk + a * plane.size + q0 * width;
  for (int64_t b = b0; b < b1; ++b) {
    for (int i = 0; i < kVectors; ++i) {
      const V value = load<V>(row + b * plane.data + i * width);
      for (int r = 0; r < kR; ++r) sums[r][i] += value * block.seconds[r * plane.x + b];
    }
  }
  for (int r = 0; r < kR; ++r) {
    for (int i = 0; i < kVectors; ++i) store(sums_of[r] + i * width, sums[r][i]);
  }
}

// The second half contractions of the x2 points [point0, point1) for every row that can be
// non-zero there: whole vectors in groups of up to 4, but for the table's last x2 point, whose
// last vector would read past the table.
template <typename V, int kR>
PARTONFIT_INLINE void second_halves(const Plane& plane, const Block& block, int64_t point0,
                                    int64_t point1) {
  constexpr int64_t width = kWidth<V>;
  const int64_t vectors = (plane.data + width - 1) / width;
  for (int64_t a = 0; a < plane.x; ++a) {
    const int64_t b0 = std::max(point0, plane.first_point[a]);
    int64_t b1 = std::min(point1, plane.end_point[a]);
    if (b0 >= b1) continue;
    const float* row = plane.fk + a * plane.size;
    if (row + (b1 - 1) * plane.data + vectors * width > plane.limit) {
      --b1;
      for (int r = 0; r < kR; ++r) {
        float* sums = block.halves + (r * plane.x + a) * halves_row(plane.data);
        const float second = block.seconds[r * plane.x + b1];
        for (int64_t n = 0; n < plane.data; ++n) sums[n] += second * row[b1 * plane.data + n];
      }
    }
    int64_t q = 0;
    for (; q + 4 <= vectors; q += 4) second_vectors<V, kR, 4>(plane, block, a, b0, b1, q);
    switch (vectors - q) {
      case 3:
        second_vectors<V, kR, 3>(plane, block, a, b0, b1, q);
        break;
      case 2:
        second_vectors<V, kR, 2>(plane, block, a, b0, b1, q);
        break;
      case 1:
        second_vectors<V, kR, 1>(plane, block, a, b0, b1, q);
        break;
      default:
        break;
    }
  }
}

// planes[r, j] = Σ_a factors[r, a] · fk[a, j] for j in [j0, j0 + kChunk · width), accumulated in
// kR · kChunk registers over the rows that can be non-zero there. For the gradient,
// row_sums[r, a] += Σ_j fk[a, j] · weights[r, j] over the same j too.
template <typename V, int kR, int kChunk, Pass kPass>
PARTONFIT_INLINE void plane_chunk(const Plane& plane, const Block& block, int64_t j0) {
  constexpr int64_t width = kWidth<V>;
  V planes[kR][kChunk] = {};
  for (int64_t a = 0; a < plane.x; ++a) {
    if (plane.end[a] <= j0 || plane.begin[a] >= j0 + kChunk * width) continue;
    const float* row = plane.fk + a * plane.size + j0;
    float factor[kR];
    for (int r = 0; r < kR; ++r) factor[r] = block.factors[r * plane.x + a];
    V row_sum[kR] = {};
    for (int k = 0; k < kChunk; ++k) {
      const V value = load<V>(row + k * width);
      for (int r = 0; r < kR; ++r) {
        planes[r][k] += value * factor[r];
        if constexpr (kPass == Pass::kGradient) {
          row_sum[r] += value * load<V>(block.weights + r * plane.size + j0 + k * width);
        }
      }
    }
    if constexpr (kPass == Pass::kGradient) {
      for (int r = 0; r < kR; ++r) {
        float* sum = block.row_sums + (r * plane.x + a) * width;
        store(sum, load<V>(sum) + row_sum[r]);
      }
    }
  }
  for (int r = 0; r < kR; ++r) {
    for (int k = 0; k < kChunk; ++k) {
      store(block.planes + r * plane.size + j0 + k * width, planes[r][k]);
    }
  }
}

// plane_chunk for a run-time chunk of 1 to kChunk vectors.
template <typename V, int kR, int kChunk, Pass kPass>
PARTONFIT_INLINE void plane_chunk_of(int64_t vectors, const Plane& plane, const Block& block,
                                     int64_t j0) {
  if constexpr (kChunk > 1) {
    if (vectors < kChunk) {
      return plane_chunk_of<V, kR, kChunk - 1, kPass>(vectors, plane, block, j0);
    }
  }
  plane_chunk<V, kR, kChunk, kPass>(plane, block, j0);
}

// The planes at j in [j0, size) one j at a time, the gradient's row sums of them straight into
// lane 0.
template <typename V, int kR, Pass kPass>
PARTONFIT_INLINE void plane_scalars(const Plane& plane, const Block& block, int64_t j0) {
  for (int64_t j = j0; j < plane.size; ++j) {
    for (int r = 0; r < kR; ++r) block.planes[r * plane.size + j] = 0.0f;
    for (int64_t a = 0; a < plane.x; ++a) {
      const float value = plane.fk[a * plane.size + j];
      for (int r = 0; r < kR; ++r) {
        block.planes[r * plane.size + j] += value * block.factors[r * plane.x + a];
        if constexpr (kPass == Pass::kGradient) {
          block.row_sums[(r * plane.x + a) * kWidth<V>] +=
              value * block.weights[r * plane.size + j];
        }
      }
    }
  }
}

// plane_chunk from j0 in chunks of up to `vectors` vectors until j1 is reached (the last vector
// may run past it) or no whole vector is left in the plane; returns where it stopped.
template <typename V, int kR, int kChunk, Pass kPass>
PARTONFIT_INLINE int64_t plane_chunks(const Plane& plane, const Block& block, int64_t vectors,
                                      int64_t j0, int64_t j1) {
  constexpr int64_t width = kWidth<V>;
  int64_t j = j0;
  while (j < j1 && j + width <= plane.size) {
    const int64_t chunk =
        std::min({vectors, (j1 - j + width - 1) / width, (plane.size - j) / width});
    plane_chunk_of<V, kR, kChunk, kPass>(chunk, plane, block, j);
    j += chunk * width;
  }
  return j;
}

// plane_chunk over the whole plane in chunks as wide as the level-1 cache holds a chunk of every
// row (the rows' next lines are fetched while a chunk is summed), then the last j one at a time.
// The halves pass takes chunks of whole x2 points, and sums each point's second half
// contractions while its values are in the cache: a chunk's last vector may run into the next
// point, whose planes the next chunk writes again.
template <typename V, int kR, int kChunk, Pass kPass>
PARTONFIT_INLINE void plane_block(const Plane& plane, const Block& block) {
  constexpr int64_t width = kWidth<V>;
  const int64_t row_bytes = plane.x * width * static_cast<int64_t>(sizeof(float));
  const int64_t vectors = std::clamp<int64_t>(chunk_bytes() / row_bytes, 1, kChunk);
  if constexpr (kPass != Pass::kHalves) {
    plane_scalars<V, kR, kPass>(plane, block,
                                plane_chunks<V, kR, kChunk, kPass>(plane, block, vectors, 0,
                                                                   plane.size));
  } else {
    const int64_t points = std::max<int64_t>(
        1, halves_chunk_bytes() / (plane.x * plane.data * static_cast<int64_t>(sizeof(float))));
    int64_t scalars = plane.size;
    for (int64_t b = 0; b < plane.x; b += points) {
      const int64_t j0 = b * plane.data, j1 = std::min(plane.x, b + points) * plane.data;
      const int64_t reached = plane_chunks<V, kR, kChunk, kPass>(plane, block, vectors, j0, j1);
      if (reached < j1) scalars = std::min(scalars, reached);
      second_halves<V, kR>(plane, block, b, std::min(plane.x, b + points));
    }
    plane_scalars<V, kR, kPass>(plane, block, scalars);
  }
}

// plane_block with kR · kChunk plane accumulators: 24 of AVX-512's 32 registers, 12 of AVX2's 16.
template <typename V, int kR, Pass kPass>
PARTONFIT_INLINE void plane_block_of(const Plane& plane, const Block& block) {
  constexpr int kAccumulators = kWidth<V> == 16 ? 24 : 12;
  plane_block<V, kR, kAccumulators / kR, kPass>(plane, block);
}

// plane_block_of for a run-time block of 1 to kMaxBlock replicas.
template <typename V, Pass kPass>
PARTONFIT_INLINE void plane_block_for(int64_t replicas, const Plane& plane, const Block& block) {
  switch (replicas) {
    case 1:
      return plane_block_of<V, 1, kPass>(plane, block);
    case 2:
      return plane_block_of<V, 2, kPass>(plane, block);
    case 3:
      return plane_block_of<V, 3, kPass>(plane, block);
    default:
      return plane_block_of<V, 4, kPass>(plane, block);
  }
}

// One block of replicas on one channel in 16 lanes, compiled for AVX-512 alone (PARTONFIT_WIDE),
// where it runs, and only in a build with the AVX-512 clones (without them wide_vectors() never
// holds; compiled for a narrower target, the 16-lane blocks take minutes to compile).
#ifdef PARTONFIT_HAS_AVX512_CLONES
template <Pass kPass>
PARTONFIT_WIDE void plane_pass_wide(int64_t replicas, const Plane& plane, const Block& block) {
  plane_block_for<Lanes16, kPass>(replicas, plane, block);
}
#endif

// The same in 8 lanes, for every clone.
template <Pass kPass>
PARTONFIT_CLONES void plane_pass_narrow(int64_t replicas, const Plane& plane,
                                        const Block& block) {
  plane_block_for<Lanes8, kPass>(replicas, plane, block);
}

// One block of replicas on one channel, in 16 lanes where wide_vectors() says so, else 8. The
// gradient's row sums are vectors of that width.
template <Pass kPass>
void plane_pass(int64_t replicas, bool wide, const Plane& plane, const Block& block) {
#ifdef PARTONFIT_HAS_AVX512_CLONES
  if (wide) {
    plane_pass_wide<kPass>(replicas, plane, block);
    return;
  }
#endif
  plane_pass_narrow<kPass>(replicas, plane, block);
}

// Lanes in a row sum: the vector width plane_pass uses.
int64_t row_sum_width(bool wide) { return wide ? kWidth<Lanes16> : kWidth<Lanes8>; }

// A thread's scratch, reused from call to call.
struct Scratch {
  std::vector<float> first;    // (replicas, x) factors of the first PDF
  std::vector<float> second;   // (replicas, x) factors of the second PDF
  std::vector<float> planes;   // (replicas, x · data) when no half contractions are written
  std::vector<float> weights;  // (replicas, x · data), the gradient's
  std::vector<float> row_sums; // the gradient's row sums or the second half contractions
  std::vector<int64_t> begin;  // (x) where each row can be non-zero
  std::vector<int64_t> end;
  std::vector<int64_t> first_point;  // (x) the same in x2 points
  std::vector<int64_t> end_point;
};

Scratch& scratch() {
  thread_local Scratch buffers;
  return buffers;
}

// Channel c's plane; its row ranges come from the support when there is one (the union of the
// data points' x2 ranges), else they span the plane.
Plane plane_of(const LuminosityProblem& p, int64_t c, Scratch& buffers) {
  const int64_t size = p.x * p.data;
  buffers.first_point.assign(p.x, 0);
  buffers.end_point.assign(p.x, p.x);
  if (p.support != nullptr) {
    const int32_t* support = p.support + c * p.x * p.data * 2;
    for (int64_t a = 0; a < p.x; ++a) {
      int64_t first = p.x, last = 0;
      for (int64_t n = 0; n < p.data; ++n) {
        const int32_t* range = support + (a * p.data + n) * 2;
        if (range[0] < range[1]) {
          first = std::min<int64_t>(first, range[0]);
          last = std::max<int64_t>(last, range[1]);
        }
      }
      buffers.first_point[a] = first < last ? first : 0;
      buffers.end_point[a] = first < last ? last : 0;
    }
  }
  buffers.begin.resize(p.x);
  buffers.end.resize(p.x);
  for (int64_t a = 0; a < p.x; ++a) {
    buffers.begin[a] = buffers.first_point[a] * p.data;
    buffers.end[a] = buffers.end_point[a] * p.data;
  }
  return {p.fk + c * p.x * size,     p.x,
          p.data,                    size,
          buffers.begin.data(),      buffers.end.data(),
          buffers.first_point.data(), buffers.end_point.data(),
          p.fk + p.channels * p.x * size};
}

// factors[r, a] = pdf[r, a, flavour] for every replica.
void gather_factors(const LuminosityProblem& p, int32_t flavour, std::vector<float>& factors) {
  factors.resize(p.replicas * p.x);
  for (int64_t r = 0; r < p.replicas; ++r) {
    for (int64_t a = 0; a < p.x; ++a) {
      factors[r * p.x + a] = p.pdf[(r * p.x + a) * p.flavours + flavour];
    }
  }
}

// target (count) = the sum over channels of what channel(c, partial) adds into a zeroed partial
// result (count) of its group: groups of consecutive channels go to the pool's threads as they
// free up (one group on the calling thread for small problems), and the groups' partials are
// added last.
void sum_over_channels(const LuminosityProblem& p, int64_t count, float* target,
                       const std::function<void(int64_t c, float* partial)>& channel) {
  std::fill(target, target + count, 0.0f);
  if (count == 0 || p.x == 0 || p.data == 0 || p.channels == 0) return;
  const bool in_parallel =
      p.replicas * p.x * p.x * p.channels * p.data >= kParallelMultiplyAdds;
  const int64_t groups =
      in_parallel ? std::min<int64_t>(4 * ThreadPool::instance().threads(), p.channels) : 1;
  std::vector<float> partials(groups * count, 0.0f);
  const auto group = [&](int64_t g) {
    for (int64_t c = p.channels * g / groups; c < p.channels * (g + 1) / groups; ++c) {
      channel(c, partials.data() + g * count);
    }
  };
  if (in_parallel) {
    ThreadPool::instance().run_tasks(groups, group);
  } else {
    group(0);
  }
  for (int64_t g = 0; g < groups; ++g) {
    const float* values = partials.data() + g * count;
    for (int64_t i = 0; i < count; ++i) target[i] += values[i];
  }
}

// Every block of at most kMaxBlock replicas: pass(first replica, replicas in the block).
void for_blocks(int64_t replicas, const std::function<void(int64_t r0, int64_t count)>& pass) {
  for (int64_t r0 = 0; r0 < replicas; r0 += kMaxBlock) {
    pass(r0, std::min<int64_t>(kMaxBlock, replicas - r0));
  }
}

// rows (replicas, x, data) = the data points of a halves pass's (replicas, x, halves_row(data)).
void compact_rows(const LuminosityProblem& p, const std::vector<float>& halves, float* rows) {
  for (int64_t i = 0; i < p.replicas * p.x; ++i) {
    const float* source = halves.data() + i * halves_row(p.data);
    std::copy(source, source + p.data, rows + i * p.data);
  }
}

// Σ_n values[n] · dy[n] over the data points.
float dot_data(const float* values, const float* dy, int64_t data) {
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (int64_t n = 0; n < data; ++n) sum += values[n] * dy[n];
  return sum;
}

// The gradient from the half contractions a forward pass left, without reading the table.
void halves_grad(const LuminosityProblem& p, const float* dy, float* d_pdf) {
  const int64_t size = p.x * p.data;
  sum_over_channels(p, p.replicas * p.x * p.flavours, d_pdf, [&](int64_t c, float* partial) {
    const float* planes = p.half_contractions + c * 2 * p.replicas * size;
    const float* rows = planes + p.replicas * size;
    const int32_t first = p.first_flavour[c], second = p.second_flavour[c];
    for (int64_t r = 0; r < p.replicas; ++r) {
      for (int64_t a = 0; a < p.x; ++a) {
        const int64_t offset = r * size + a * p.data;
        float* target = partial + (r * p.x + a) * p.flavours;
        target[first] += dot_data(rows + offset, dy + r * p.data, p.data);
        target[second] += dot_data(planes + offset, dy + r * p.data, p.data);
      }
    }
  });
}

}  // namespace

void plane_contraction(const LuminosityProblem& p, float* out) {
  const bool wide = wide_vectors();
  const int64_t size = p.x * p.data;
  const bool halves = p.half_contractions != nullptr;
  sum_over_channels(p, p.replicas * p.data, out, [&](int64_t c, float* partial) {
    Scratch& buffers = scratch();
    const Plane plane = plane_of(p, c, buffers);
    gather_factors(p, p.first_flavour[c], buffers.first);
    gather_factors(p, p.second_flavour[c], buffers.second);
    float* planes = nullptr;
    if (halves) {
      planes = p.half_contractions + c * 2 * p.replicas * size;
      buffers.row_sums.assign(p.replicas * p.x * halves_row(p.data), 0.0f);
    } else {
      buffers.planes.resize(p.replicas * size);
      planes = buffers.planes.data();
    }
    for_blocks(p.replicas, [&](int64_t r0, int64_t replicas) {
      const float* first = buffers.first.data() + r0 * p.x;
      if (halves) {
        plane_pass<Pass::kHalves>(replicas, wide, plane,
                                  {first, planes + r0 * size, nullptr, nullptr,
                                   buffers.second.data() + r0 * p.x,
                                   buffers.row_sums.data() + r0 * p.x * halves_row(p.data)});
      } else {
        plane_pass<Pass::kPlanes>(replicas, wide, plane, {first, planes + r0 * size});
      }
    });
    if (halves) compact_rows(p, buffers.row_sums, planes + p.replicas * size);
    // out[r, n] += Σ_b second[r, b] · plane[r](b, n)
    for (int64_t r = 0; r < p.replicas; ++r) {
      for (int64_t b = 0; b < p.x; ++b) {
        const float factor = buffers.second[r * p.x + b];
        const float* values = planes + r * size + b * p.data;
#pragma omp simd
        for (int64_t n = 0; n < p.data; ++n) partial[r * p.data + n] += factor * values[n];
      }
    }
  });
}

void plane_contraction_grad(const LuminosityProblem& p, const float* dy, float* d_pdf) {
  if (p.half_contractions != nullptr) return halves_grad(p, dy, d_pdf);
  const bool wide = wide_vectors();
  const int64_t lanes = row_sum_width(wide);
  const int64_t size = p.x * p.data;
  sum_over_channels(p, p.replicas * p.x * p.flavours, d_pdf, [&](int64_t c, float* partial) {
    Scratch& buffers = scratch();
    const Plane plane = plane_of(p, c, buffers);
    const int32_t first = p.first_flavour[c], second = p.second_flavour[c];
    gather_factors(p, first, buffers.first);
    gather_factors(p, second, buffers.second);
    // weights[r](b, n) = second[r, b] · dy[r, n]: the row sums of the table against them are
    // the gradient with respect to the first factor.
    buffers.weights.resize(p.replicas * size);
    for (int64_t r = 0; r < p.replicas; ++r) {
      for (int64_t b = 0; b < p.x; ++b) {
        const float factor = buffers.second[r * p.x + b];
        float* target = buffers.weights.data() + r * size + b * p.data;
#pragma omp simd
        for (int64_t n = 0; n < p.data; ++n) target[n] = factor * dy[r * p.data + n];
      }
    }
    buffers.planes.resize(p.replicas * size);
    buffers.row_sums.assign(p.replicas * p.x * lanes, 0.0f);
    for_blocks(p.replicas, [&](int64_t r0, int64_t replicas) {
      plane_pass<Pass::kGradient>(replicas, wide, plane,
                                  {buffers.first.data() + r0 * p.x,
                                   buffers.planes.data() + r0 * size,
                                   buffers.weights.data() + r0 * size,
                                   buffers.row_sums.data() + r0 * p.x * lanes});
    });
    for (int64_t r = 0; r < p.replicas; ++r) {
      for (int64_t a = 0; a < p.x; ++a) {
        const float* sum = buffers.row_sums.data() + (r * p.x + a) * lanes;
        float row_sum = 0.0f;
        for (int64_t i = 0; i < lanes; ++i) row_sum += sum[i];
        partial[(r * p.x + a) * p.flavours + first] += row_sum;
      }
      // d_second[r, b] = Σ_n dy[r, n] · plane[r](b, n)
      for (int64_t b = 0; b < p.x; ++b) {
        const float* values = buffers.planes.data() + r * size + b * p.data;
        partial[(r * p.x + b) * p.flavours + second] += dot_data(values, dy + r * p.data, p.data);
      }
    }
  });
}

}  // namespace partonfit
