#include "layout.h"

#include <algorithm>
#include <cstring>

#include "thread_pool.h"

namespace partonfit {

namespace {

// Runs body(begin, end) over [0, count) items of `item_size` elements each, in parallel when
// the total is large.
template <class Body>
void for_items(int64_t count, int64_t item_size, Body body) {
  const int64_t total = count * std::max<int64_t>(item_size, 1);
  if (total < kParallelElements || count < 2) {
    body(int64_t{0}, count);
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kParallelElements / 2 / std::max<int64_t>(item_size, 1));
  ThreadPool::instance().parallel_for(count, grain,
                                      [&](int64_t begin, int64_t end) { body(begin, end); });
}

// Sets index / offset to the position of `item` in an odometer over dims[0..rank) whose
// dimension d advances the source by strides[d].
int64_t odometer_start(int64_t item, const int64_t* dims, const int64_t* strides, int rank,
                       int64_t* index) {
  int64_t offset = 0;
  for (int d = rank - 1; d >= 0; --d) {
    index[d] = item % dims[d];
    item /= dims[d];
    offset += index[d] * strides[d];
  }
  return offset;
}

// Advances the odometer by one and returns the change of the source offset.
int64_t odometer_step(const int64_t* dims, const int64_t* strides, int rank, int64_t* index) {
  int64_t change = 0;
  for (int d = rank - 1; d >= 0; --d) {
    change += strides[d];
    if (++index[d] < dims[d]) return change;
    change -= index[d] * strides[d];
    index[d] = 0;
  }
  return change;
}

constexpr int64_t kTile = 32;

}  // namespace

void transpose(const uint32_t* x, const int32_t* shape, const int32_t* perm, int rank,
               uint32_t* out) {
  // Input strides, then the output dimensions with the input stride each one walks.
  int64_t in_strides[kMaxRank];
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    in_strides[d] = stride;
    stride *= shape[d];
  }
  const int64_t total = stride;
  if (total == 0) return;
  // Drop size-1 dimensions and merge output neighbours that are input neighbours too.
  int64_t dims[kMaxRank], strides[kMaxRank];
  int n = 0;
  for (int d = 0; d < rank; ++d) {
    const int64_t dim = shape[perm[d]];
    const int64_t walk = in_strides[perm[d]];
    if (dim == 1) continue;
    if (n > 0 && strides[n - 1] == walk * dim) {
      dims[n - 1] *= dim;
      strides[n - 1] = walk;
      continue;
    }
    dims[n] = dim;
    strides[n] = walk;
    ++n;
  }
  if (n <= 1 || strides[n - 1] == 1) {
    // The innermost output dimension is contiguous in the input: copy runs.
    const int64_t run = n == 0 ? 1 : dims[n - 1];
    const int outer_rank = n == 0 ? 0 : n - 1;
    const int64_t rows = total / run;
    for_items(rows, run, [&](int64_t r0, int64_t r1) {
      int64_t index[kMaxRank];
      int64_t offset = odometer_start(r0, dims, strides, outer_rank, index);
      for (int64_t r = r0; r < r1; ++r) {
        std::memcpy(out + r * run, x + offset, run * sizeof(uint32_t));
        offset += odometer_step(dims, strides, outer_rank, index);
      }
    });
    return;
  }
  // Otherwise some output dimension p walks the input contiguously: copy (p, innermost) tiles,
  // reading along p and writing along the innermost output dimension.
  int p = 0;
  for (int d = 0; d < n; ++d) {
    if (strides[d] == 1) p = d;
  }
  int64_t out_strides[kMaxRank];
  stride = 1;
  for (int d = n - 1; d >= 0; --d) {
    out_strides[d] = stride;
    stride *= dims[d];
  }
  // The odometer runs over the other output dimensions.
  int64_t rest_dims[kMaxRank], rest_in[kMaxRank], rest_out[kMaxRank];
  int rest = 0;
  for (int d = 0; d < n - 1; ++d) {
    if (d == p) continue;
    rest_dims[rest] = dims[d];
    rest_in[rest] = strides[d];
    rest_out[rest] = out_strides[d];
    ++rest;
  }
  int64_t rest_count = 1;
  for (int d = 0; d < rest; ++d) rest_count *= rest_dims[d];
  const int64_t rows = dims[p];
  const int64_t columns = dims[n - 1];
  const int64_t column_stride = strides[n - 1];
  const int64_t row_out_stride = out_strides[p];
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  for_items(rest_count * row_tiles, kTile * columns, [&](int64_t i0, int64_t i1) {
    for (int64_t item = i0; item < i1; ++item) {
      int64_t index[kMaxRank];
      const int64_t slab = item / row_tiles;
      const int64_t tile = item % row_tiles;
      const int64_t in_base = odometer_start(slab, rest_dims, rest_in, rest, index);
      int64_t out_base = 0;
      for (int d = 0; d < rest; ++d) out_base += index[d] * rest_out[d];
      const int64_t a0 = tile * kTile;
      const int64_t a1 = std::min(rows, a0 + kTile);
      for (int64_t b0 = 0; b0 < columns; b0 += kTile) {
        const int64_t b1 = std::min(columns, b0 + kTile);
        for (int64_t a = a0; a < a1; ++a) {
          const uint32_t* source = x + in_base + a;
          uint32_t* target = out + out_base + a * row_out_stride;
          for (int64_t b = b0; b < b1; ++b) target[b] = source[b * column_stride];
        }
      }
    }
  });
}

void concat(const uint32_t* const* inputs, const int64_t* row_lengths, int count, int64_t outer,
            uint32_t* out) {
  int64_t row = 0;
  for (int i = 0; i < count; ++i) row += row_lengths[i];
  for_items(outer, row, [&](int64_t o0, int64_t o1) {
    for (int64_t o = o0; o < o1; ++o) {
      uint32_t* target = out + o * row;
      for (int i = 0; i < count; ++i) {
        std::memcpy(target, inputs[i] + o * row_lengths[i], row_lengths[i] * sizeof(uint32_t));
        target += row_lengths[i];
      }
    }
  });
}

void slice(const uint32_t* x, const int32_t* shape, const int32_t* begin, const int32_t* size,
           int rank, uint32_t* out) {
  int64_t in_strides[kMaxRank];
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    in_strides[d] = stride;
    stride *= shape[d];
  }
  int64_t total = 1;
  for (int d = 0; d < rank; ++d) total *= size[d];
  if (total == 0) return;
  // Trailing dimensions taken whole join the innermost run.
  int inner = rank - 1;
  int64_t run = rank == 0 ? 1 : size[inner];
  while (inner > 0 && size[inner] == shape[inner]) {
    --inner;
    run *= size[inner];
  }
  int64_t start = 0;
  for (int d = 0; d < rank; ++d) start += begin[d] * in_strides[d];
  int64_t dims[kMaxRank], strides[kMaxRank];
  for (int d = 0; d < inner; ++d) {
    dims[d] = size[d];
    strides[d] = in_strides[d];
  }
  const int64_t rows = total / run;
  for_items(rows, run, [&](int64_t r0, int64_t r1) {
    int64_t index[kMaxRank];
    int64_t offset = start + odometer_start(r0, dims, strides, inner, index);
    for (int64_t r = r0; r < r1; ++r) {
      std::memcpy(out + r * run, x + offset, run * sizeof(uint32_t));
      offset += odometer_step(dims, strides, inner, index);
    }
  });
}

void pad(const uint32_t* x, const int32_t* shape, const int32_t* before, const int32_t* out_shape,
         int rank, uint32_t fill, uint32_t* out) {
  int64_t out_strides[kMaxRank];
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    out_strides[d] = stride;
    stride *= out_shape[d];
  }
  const int64_t out_total = stride;
  for_items(out_total, 1, [&](int64_t begin, int64_t end) { std::fill(out + begin, out + end, fill); });
  int64_t total = 1;
  for (int d = 0; d < rank; ++d) total *= shape[d];
  if (total == 0) return;
  // Trailing dimensions without padding join the innermost run.
  int inner = rank - 1;
  int64_t run = rank == 0 ? 1 : shape[inner];
  while (inner > 0 && shape[inner] == out_shape[inner]) {
    --inner;
    run *= shape[inner];
  }
  int64_t start = 0;
  for (int d = 0; d < rank; ++d) start += before[d] * out_strides[d];
  int64_t dims[kMaxRank], strides[kMaxRank];
  for (int d = 0; d < inner; ++d) {
    dims[d] = shape[d];
    strides[d] = out_strides[d];
  }
  const int64_t rows = total / run;
  for_items(rows, run, [&](int64_t r0, int64_t r1) {
    int64_t index[kMaxRank];
    int64_t offset = start + odometer_start(r0, dims, strides, inner, index);
    for (int64_t r = r0; r < r1; ++r) {
      std::memcpy(out + offset, x + r * run, run * sizeof(uint32_t));
      offset += odometer_step(dims, strides, inner, index);
    }
  });
}

}  // namespace partonfit
