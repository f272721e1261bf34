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

// Contractions below this many multiply-adds run on the calling thread.
constexpr int64_t kParallelMultiplyAdds = int64_t{1} << 21;

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
};

// The per-replica inputs and outputs of one block of kR replicas on one channel, each (kR, …)
// row-major: factors (kR, x) of the first PDF, planes (kR, size) written, and for the gradient
// weights (kR, size) read and row_sums (kR, x) of vectors added to.
struct Block {
  const float* factors;
  float* planes;
  const float* weights;
  float* row_sums;
};

// planes[r, j] = Σ_a factors[r, a] · fk[a, j] for j in [j0, j0 + kChunk · width), accumulated in
// kR · kChunk registers over the rows that can be non-zero there. With weights (kWeighted),
// row_sums[r, a] += Σ_j fk[a, j] · weights[r, j] over the same j too.
template <typename V, int kR, int kChunk, bool kWeighted>
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
        if constexpr (kWeighted) {
          row_sum[r] += value * load<V>(block.weights + r * plane.size + j0 + k * width);
        }
      }
    }
    if constexpr (kWeighted) {
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
template <typename V, int kR, int kChunk, bool kWeighted>
PARTONFIT_INLINE void plane_chunk_of(int64_t vectors, const Plane& plane, const Block& block,
                                     int64_t j0) {
  if constexpr (kChunk > 1) {
    if (vectors < kChunk) {
      return plane_chunk_of<V, kR, kChunk - 1, kWeighted>(vectors, plane, block, j0);
    }
  }
  plane_chunk<V, kR, kChunk, kWeighted>(plane, block, j0);
}

// plane_chunk over the whole plane: chunks of up to kChunk vectors, as wide as the level-1 cache
// holds a chunk of every row (the rows' next lines are fetched while a chunk is summed), then
// the last j one at a time (their row sums go straight into lane 0).
template <typename V, int kR, int kChunk, bool kWeighted>
PARTONFIT_INLINE void plane_block(const Plane& plane, const Block& block) {
  constexpr int64_t width = kWidth<V>;
  const int64_t row_bytes = plane.x * width * static_cast<int64_t>(sizeof(float));
  const int64_t vectors = std::clamp<int64_t>(chunk_bytes() / row_bytes, 1, kChunk);
  int64_t j = 0;
  for (; j + width <= plane.size; j += vectors * width) {
    const int64_t left = (plane.size - j) / width;
    plane_chunk_of<V, kR, kChunk, kWeighted>(std::min(left, vectors), plane, block, j);
  }
  j = plane.size / width * width;
  for (; j < plane.size; ++j) {
    for (int r = 0; r < kR; ++r) block.planes[r * plane.size + j] = 0.0f;
    for (int64_t a = 0; a < plane.x; ++a) {
      const float value = plane.fk[a * plane.size + j];
      for (int r = 0; r < kR; ++r) {
        block.planes[r * plane.size + j] += value * block.factors[r * plane.x + a];
        if constexpr (kWeighted) {
          block.row_sums[(r * plane.x + a) * width] +=
              value * block.weights[r * plane.size + j];
        }
      }
    }
  }
}

// plane_block with kR · kChunk plane accumulators: 24 of AVX-512's 32 registers, 12 of AVX2's 16.
template <typename V, int kR, bool kWeighted>
PARTONFIT_INLINE void plane_block_of(const Plane& plane, const Block& block) {
  constexpr int kAccumulators = kWidth<V> == 16 ? 24 : 12;
  plane_block<V, kR, kAccumulators / kR, kWeighted>(plane, block);
}

// plane_block_of for a run-time block of 1 to kMaxBlock replicas.
template <typename V, bool kWeighted>
PARTONFIT_INLINE void plane_block_for(int64_t replicas, const Plane& plane, const Block& block) {
  switch (replicas) {
    case 1:
      return plane_block_of<V, 1, kWeighted>(plane, block);
    case 2:
      return plane_block_of<V, 2, kWeighted>(plane, block);
    case 3:
      return plane_block_of<V, 3, kWeighted>(plane, block);
    default:
      return plane_block_of<V, 4, kWeighted>(plane, block);
  }
}

// One block of replicas on one channel, in 16 lanes where wide_vectors() says so, else 8. The
// row sums, when weighted, are vectors of that width.
template <bool kWeighted>
PARTONFIT_CLONES void plane_pass(int64_t replicas, bool wide, const Plane& plane,
                                 const Block& block) {
  if (wide) {
    plane_block_for<Lanes16, kWeighted>(replicas, plane, block);
  } else {
    plane_block_for<Lanes8, kWeighted>(replicas, plane, block);
  }
}

// Lanes in a row sum: the vector width plane_pass uses.
int64_t row_sum_width(bool wide) { return wide ? kWidth<Lanes16> : kWidth<Lanes8>; }

// A thread's scratch, reused from call to call.
struct Scratch {
  std::vector<float> first;    // (replicas, x) factors of the first PDF
  std::vector<float> second;   // (replicas, x) factors of the second PDF
  std::vector<float> planes;   // (replicas, x · data)
  std::vector<float> weights;  // (replicas, x · data), the gradient's
  std::vector<float> row_sums; // (replicas, x, lanes), the gradient's
  std::vector<int64_t> begin;  // (x) where each row can be non-zero
  std::vector<int64_t> end;
};

Scratch& scratch() {
  thread_local Scratch buffers;
  return buffers;
}

// Channel c's plane; its row ranges come from the support when there is one (the union of the
// data points' x2 ranges, in plane positions), else they span the plane.
Plane plane_of(const LuminosityProblem& p, int64_t c, Scratch& buffers) {
  const int64_t size = p.x * p.data;
  buffers.begin.assign(p.x, 0);
  buffers.end.assign(p.x, size);
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
      buffers.begin[a] = first < last ? first * p.data : 0;
      buffers.end[a] = first < last ? last * p.data : 0;
    }
  }
  return {p.fk + c * p.x * size, p.x, p.data, size, buffers.begin.data(), buffers.end.data()};
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

}  // namespace

void plane_contraction(const LuminosityProblem& p, float* out) {
  const bool wide = wide_vectors();
  const int64_t size = p.x * p.data;
  sum_over_channels(p, p.replicas * p.data, out, [&](int64_t c, float* partial) {
    Scratch& buffers = scratch();
    const Plane plane = plane_of(p, c, buffers);
    gather_factors(p, p.first_flavour[c], buffers.first);
    gather_factors(p, p.second_flavour[c], buffers.second);
    buffers.planes.resize(p.replicas * size);
    for_blocks(p.replicas, [&](int64_t r0, int64_t replicas) {
      plane_pass<false>(replicas, wide, plane,
                        {buffers.first.data() + r0 * p.x, buffers.planes.data() + r0 * size,
                         nullptr, nullptr});
    });
    // out[r, n] += Σ_b second[r, b] · plane[r](b, n)
    for (int64_t r = 0; r < p.replicas; ++r) {
      for (int64_t b = 0; b < p.x; ++b) {
        const float factor = buffers.second[r * p.x + b];
        const float* values = buffers.planes.data() + r * size + b * p.data;
#pragma omp simd
        for (int64_t n = 0; n < p.data; ++n) partial[r * p.data + n] += factor * values[n];
      }
    }
  });
}

void plane_contraction_grad(const LuminosityProblem& p, const float* dy, float* d_pdf) {
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
      plane_pass<true>(replicas, wide, plane,
                       {buffers.first.data() + r0 * p.x, buffers.planes.data() + r0 * size,
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
        float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
        for (int64_t n = 0; n < p.data; ++n) sum += dy[r * p.data + n] * values[n];
        partial[(r * p.x + b) * p.flavours + second] += sum;
      }
    }
  });
}

}  // namespace partonfit
