#include "small_gemm.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "simd.h"

// Multiply-adds as fused multiply-adds where the target has them. The 16-float vector type is
// only passed between always-inlined functions, so its ABI (-Wpsabi) never matters.
#pragma GCC optimize("fp-contract=fast")
#pragma GCC diagnostic ignored "-Wpsabi"

namespace partonfit {

namespace {

// 16 floats: one AVX-512 register, two AVX2 registers or four SSE registers, depending on the
// clone the code is compiled into.
typedef float Lanes __attribute__((vector_size(64)));
constexpr int64_t kLanes = 16;

PARTONFIT_INLINE Lanes load(const float* p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Stores the first `count` lanes (none when count <= 0).
PARTONFIT_INLINE void store(float* p, Lanes v, int64_t count) {
  if (count <= 0) return;
  if (count >= kLanes) {
    std::memcpy(p, &v, sizeof v);
  } else {
    float lanes[kLanes];
    std::memcpy(lanes, &v, sizeof v);
    std::memcpy(p, lanes, count * sizeof(float));
  }
}

PARTONFIT_INLINE Lanes splat(float x) { return Lanes{} + x; }

// op(B) as k rows of `vectors` * 16 floats, zero-padded beyond n.
void pack_rows(const float* b, int64_t ldb, bool transpose_b, int64_t n, int64_t k,
               int64_t vectors, float* packed) {
  const int64_t width = vectors * kLanes;
  std::fill(packed, packed + k * width, 0.0f);
  for (int64_t p = 0; p < k; ++p) {
    for (int64_t j = 0; j < n; ++j) {
      packed[p * width + j] = transpose_b ? b[j * ldb + p] : b[p * ldb + j];
    }
  }
}

// kRows rows of C from kRows rows of A: every row of packed B is loaded once and used kRows
// times; the kRows * kVectors accumulators stay in registers. The first `whole_rows` rows are
// stored as whole vectors, the others cut at n.
template <int kRows, int kVectors>
PARTONFIT_INLINE void narrow_block(const float* a, int64_t lda, const float* packed, float* c,
                                   int64_t ldc, int64_t n, int64_t k, int64_t whole_rows) {
  Lanes acc[kRows][kVectors] = {};
  for (int64_t p = 0; p < k; ++p) {
    Lanes row[kVectors];
    for (int v = 0; v < kVectors; ++v) row[v] = load(packed + (p * kVectors + v) * kLanes);
    for (int r = 0; r < kRows; ++r) {
      const Lanes scale = splat(a[r * lda + p]);
      for (int v = 0; v < kVectors; ++v) acc[r][v] += scale * row[v];
    }
  }
  for (int r = 0; r < kRows; ++r) {
    for (int v = 0; v < kVectors; ++v) {
      float* to = c + r * ldc + v * kLanes;
      if (r < whole_rows) {
        std::memcpy(to, &acc[r][v], sizeof(Lanes));
      } else {
        store(to, acc[r][v], n - v * kLanes);
      }
    }
  }
}

template <int kVectors>
PARTONFIT_INLINE void narrow_rows(const float* a, int64_t lda, const float* packed, float* c,
                                  int64_t ldc, int64_t rows, int64_t n, int64_t k,
                                  int64_t whole_rows) {
  constexpr int kRows = kVectors <= 2 ? 4 : 2;
  int64_t i = 0;
  for (; i + kRows <= rows; i += kRows) {
    narrow_block<kRows, kVectors>(a + i * lda, lda, packed, c + i * ldc, ldc, n, k,
                                  whole_rows - i);
  }
  for (; i < rows; ++i) {
    narrow_block<1, kVectors>(a + i * lda, lda, packed, c + i * ldc, ldc, n, k, whole_rows - i);
  }
}

PARTONFIT_CLONES void narrow_dispatch(const float* a, int64_t lda, const float* packed, float* c,
                                      int64_t ldc, int64_t rows, int64_t n, int64_t k,
                                      int64_t vectors, int64_t whole_rows) {
  switch (vectors) {
    case 1:
      return narrow_rows<1>(a, lda, packed, c, ldc, rows, n, k, whole_rows);
    case 2:
      return narrow_rows<2>(a, lda, packed, c, ldc, rows, n, k, whole_rows);
    case 3:
      return narrow_rows<3>(a, lda, packed, c, ldc, rows, n, k, whole_rows);
    default:
      return narrow_rows<4>(a, lda, packed, c, ldc, rows, n, k, whole_rows);
  }
}

// How many leading rows of a (rows, n) result gemm_narrow may store as whole vectors of `reach`
// floats: every row when they fit its writable columns; when whole rows of ldc are writable, the
// rows whose overhang lands on later rows of the result (stored after it) and not past its end.
int64_t whole_vector_rows(int64_t rows, int64_t reach, int64_t ldc, int64_t writable) {
  if (reach <= writable) return rows;
  if (writable < ldc || rows * ldc < reach) return 0;
  return (rows * ldc - reach) / ldc + 1;
}

// gemm_long takes rows of up to kFewRowsMaxWidth columns whole when there are at most kFewRows.
constexpr int64_t kFewRows = 16;
constexpr int64_t kFewRowsMaxWidth = 4096;

// Rows of C a long-sum block accumulates at once, for a given number of 16-lane vectors per row:
// about 16 accumulators, which AVX-512's 32 registers hold with room for the operands.
constexpr int long_rows(int vectors) { return vectors == 1 ? 16 : vectors == 2 ? 8 : 4; }

// kRows rows of C = sum over p of op(A)[:, p] (x) B[p, :], op(A)[r, p] = a[r * sa + p * sp]. Rows
// [0, k_direct) of B are loaded in place (lanes past n hold whatever follows and are never
// stored); the last rows come from `tail`, a zero-padded copy, so that no load leaves B.
template <int kRows, int kVectors>
PARTONFIT_INLINE void long_block(const float* a, int64_t sa, int64_t sp, const float* b,
                                 int64_t ldb, const float* tail, int64_t k_direct, int64_t k,
                                 float* c, int64_t ldc, int64_t n) {
  Lanes acc[kRows][kVectors] = {};
  for (int64_t p = 0; p < k; ++p) {
    const float* source = p < k_direct ? b + p * ldb : tail + (p - k_direct) * kVectors * kLanes;
    Lanes row[kVectors];
    for (int v = 0; v < kVectors; ++v) row[v] = load(source + v * kLanes);
    for (int r = 0; r < kRows; ++r) {
      const Lanes scale = splat(a[r * sa + p * sp]);
      for (int v = 0; v < kVectors; ++v) acc[r][v] += scale * row[v];
    }
  }
  for (int r = 0; r < kRows; ++r) {
    for (int v = 0; v < kVectors; ++v) store(c + r * ldc + v * kLanes, acc[r][v], n - v * kLanes);
  }
}

template <int kVectors>
PARTONFIT_INLINE void long_rows_of(const float* a, int64_t sa, int64_t sp, const float* b,
                                   int64_t ldb, const float* tail, int64_t k_direct, int64_t k,
                                   float* c, int64_t ldc, int64_t m, int64_t n) {
  constexpr int kRows = long_rows(kVectors);
  int64_t i = 0;
  for (; i + kRows <= m; i += kRows) {
    long_block<kRows, kVectors>(a + i * sa, sa, sp, b, ldb, tail, k_direct, k, c + i * ldc, ldc,
                                n);
  }
  // The remaining rows in halving blocks: one more pass over B per block, not per row.
  if constexpr (kRows > 8) {
    if (i + 8 <= m) {
      long_block<8, kVectors>(a + i * sa, sa, sp, b, ldb, tail, k_direct, k, c + i * ldc, ldc, n);
      i += 8;
    }
  }
  if constexpr (kRows > 4) {
    if (i + 4 <= m) {
      long_block<4, kVectors>(a + i * sa, sa, sp, b, ldb, tail, k_direct, k, c + i * ldc, ldc, n);
      i += 4;
    }
  }
  if (i + 2 <= m) {
    long_block<2, kVectors>(a + i * sa, sa, sp, b, ldb, tail, k_direct, k, c + i * ldc, ldc, n);
    i += 2;
  }
  if (i < m) {
    long_block<1, kVectors>(a + i * sa, sa, sp, b, ldb, tail, k_direct, k, c + i * ldc, ldc, n);
  }
}

PARTONFIT_CLONES void long_dispatch(const float* a, int64_t sa, int64_t sp, const float* b,
                                    int64_t ldb, const float* tail, int64_t k_direct, int64_t k,
                                    float* c, int64_t ldc, int64_t m, int64_t n, int64_t vectors) {
  switch (vectors) {
    case 1:
      return long_rows_of<1>(a, sa, sp, b, ldb, tail, k_direct, k, c, ldc, m, n);
    case 2:
      return long_rows_of<2>(a, sa, sp, b, ldb, tail, k_direct, k, c, ldc, m, n);
    case 3:
      return long_rows_of<3>(a, sa, sp, b, ldb, tail, k_direct, k, c, ldc, m, n);
    default:
      return long_rows_of<4>(a, sa, sp, b, ldb, tail, k_direct, k, c, ldc, m, n);
  }
}

// m (<= kFewRows) whole rows of C = sum over p of op(A)[:, p] (x) B[p, :], accumulated in `acc`
// (m rows of `vectors` * 16 floats, in the core's cache): B is streamed once, a row at a time,
// each of its vectors loaded once for all m rows. Rows [0, k_direct) of B are loaded in place
// (lanes past n never stored), the rest from the zero-padded `tail`.
PARTONFIT_CLONES void few_rows(const float* a, int64_t sa, int64_t sp, const float* b,
                               int64_t ldb, const float* tail, int64_t k_direct, Lanes* acc,
                               float* c, int64_t ldc, int64_t m, int64_t n, int64_t k,
                               int64_t vectors) {
  std::fill(acc, acc + m * vectors, Lanes{});
  Lanes scale[kFewRows];
  for (int64_t p = 0; p < k; ++p) {
    const float* row = p < k_direct ? b + p * ldb : tail + (p - k_direct) * vectors * kLanes;
    for (int64_t r = 0; r < m; ++r) scale[r] = splat(a[r * sa + p * sp]);
    for (int64_t v = 0; v < vectors; ++v) {
      const Lanes values = load(row + v * kLanes);
      for (int64_t r = 0; r < m; ++r) acc[r * vectors + v] += scale[r] * values;
    }
  }
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t v = 0; v < vectors; ++v) {
      store(c + r * ldc + v * kLanes, acc[r * vectors + v], n - v * kLanes);
    }
  }
}

// kRows (<= 8) rows of C = A B for 32 columns of B starting at `b` (row stride ldb), k rows.
template <int kRows>
PARTONFIT_INLINE void wide_block(const float* a, int64_t lda, const float* b, int64_t ldb,
                                 float* c, int64_t ldc, int64_t columns, int64_t k) {
  Lanes acc[kRows][2] = {};
  for (int64_t p = 0; p < k; ++p) {
    const Lanes first = load(b + p * ldb);
    const Lanes second = load(b + p * ldb + kLanes);
    for (int r = 0; r < kRows; ++r) {
      const Lanes scale = splat(a[r * lda + p]);
      acc[r][0] += scale * first;
      acc[r][1] += scale * second;
    }
  }
  for (int r = 0; r < kRows; ++r) {
    store(c + r * ldc, acc[r][0], columns);
    store(c + r * ldc + kLanes, acc[r][1], columns - kLanes);
  }
}

template <int kRows>
PARTONFIT_INLINE void wide_rows(const float* a, int64_t lda, const float* b, int64_t ldb,
                                const float* tail, float* c, int64_t ldc, int64_t n, int64_t k) {
  constexpr int64_t kBlock = 2 * kLanes;
  int64_t j = 0;
  for (; j + kBlock <= n; j += kBlock) wide_block<kRows>(a, lda, b + j, ldb, c + j, ldc, kBlock, k);
  if (j < n) wide_block<kRows>(a, lda, tail, kBlock, c + j, ldc, n - j, k);
}

PARTONFIT_CLONES void wide_dispatch(const float* a, int64_t lda, const float* b, int64_t ldb,
                                    const float* tail, float* c, int64_t ldc, int64_t m,
                                    int64_t n, int64_t k) {
  switch (m) {
    case 1:
      return wide_rows<1>(a, lda, b, ldb, tail, c, ldc, n, k);
    case 2:
      return wide_rows<2>(a, lda, b, ldb, tail, c, ldc, n, k);
    case 3:
      return wide_rows<3>(a, lda, b, ldb, tail, c, ldc, n, k);
    case 4:
      return wide_rows<4>(a, lda, b, ldb, tail, c, ldc, n, k);
    case 5:
      return wide_rows<5>(a, lda, b, ldb, tail, c, ldc, n, k);
    case 6:
      return wide_rows<6>(a, lda, b, ldb, tail, c, ldc, n, k);
    case 7:
      return wide_rows<7>(a, lda, b, ldb, tail, c, ldc, n, k);
    default:
      return wide_rows<8>(a, lda, b, ldb, tail, c, ldc, n, k);
  }
}

// The packing buffer of the calling thread, grown as needed.
float* packing_buffer(int64_t floats) {
  thread_local std::vector<float> buffer;
  if (static_cast<int64_t>(buffer.size()) < floats) buffer.resize(floats);
  return buffer.data();
}

// How gemm_long computes an (m, n) result over k, if it suits the shape at all.
enum class LongPlan { kNone, kPanels, kFewRows };

LongPlan long_plan(int64_t m, int64_t n, int64_t k) {
  if (m > kSmallGemmMaxWidth) return LongPlan::kNone;
  const int vectors = static_cast<int>((std::min(n, kSmallGemmMaxWidth) + kLanes - 1) / kLanes);
  const int64_t passes = (m + long_rows(vectors) - 1) / long_rows(vectors);
  // Register accumulators, B streamed once per pass (and once per 64-column panel).
  if (n <= kSmallGemmMaxWidth && passes <= 2) return LongPlan::kPanels;
  // Cached accumulators, B streamed once.
  if (m <= kFewRows && n <= kFewRowsMaxWidth) return LongPlan::kFewRows;
  // Several passes only while B stays in the core's cache.
  return k * n <= (1 << 18) ? LongPlan::kPanels : LongPlan::kNone;
}

}  // namespace

bool gemm_narrow_suits(int64_t n, int64_t k) {
  if (n > kSmallGemmMaxWidth) return false;
  const int64_t vectors = (n + kLanes - 1) / kLanes;
  // The packed B is read once per block of rows: keep it in the core's cache (64 KB).
  return k * vectors * kLanes <= (1 << 14);
}

void gemm_narrow(const float* a, int64_t lda, const float* b, int64_t ldb, bool transpose_b,
                 float* c, int64_t ldc, int64_t writable, int64_t rows, int64_t n, int64_t k) {
  const int64_t vectors = (n + kLanes - 1) / kLanes;
  float* packed = packing_buffer(k * vectors * kLanes);
  pack_rows(b, ldb, transpose_b, n, k, vectors, packed);
  narrow_dispatch(a, lda, packed, c, ldc, rows, n, k, vectors,
                  whole_vector_rows(rows, vectors * kLanes, ldc, writable));
}

bool gemm_long_suits(int64_t m, int64_t n, int64_t k) { return long_plan(m, n, k) != LongPlan::kNone; }

void gemm_long(const float* a, int64_t a_row_stride, int64_t a_inner_stride, const float* b,
               int64_t ldb, float* c, int64_t ldc, int64_t m, int64_t n, int64_t k) {
  if (long_plan(m, n, k) == LongPlan::kFewRows) {
    const int64_t vectors = (n + kLanes - 1) / kLanes;
    const int64_t tail_rows = std::min(k, (vectors * kLanes - n + ldb - 1) / ldb);
    const int64_t k_direct = k - tail_rows;
    // Accumulators, then the padded tail rows, in one buffer (aligned for the vectors).
    float* buffer = packing_buffer((m + std::max<int64_t>(tail_rows, 1)) * vectors * kLanes + kLanes);
    auto* acc = reinterpret_cast<Lanes*>(
        (reinterpret_cast<uintptr_t>(buffer) + sizeof(Lanes) - 1) & ~(uintptr_t{sizeof(Lanes)} - 1));
    float* tail = reinterpret_cast<float*>(acc + m * vectors);
    pack_rows(b + k_direct * ldb, ldb, false, n, tail_rows, vectors, tail);
    few_rows(a, a_row_stride, a_inner_stride, b, ldb, tail, k_direct, acc, c, ldc, m, n, k,
             vectors);
    return;
  }
  // Panels of at most 64 columns, each a sum of outer products.
  for (int64_t j = 0; j < n; j += kSmallGemmMaxWidth) {
    const int64_t width = std::min(kSmallGemmMaxWidth, n - j);
    const int64_t vectors = (width + kLanes - 1) / kLanes;
    const int64_t overhang = vectors * kLanes - width;
    // Rows whose full-width load would run past the panel's last element come from a padded
    // copy (past a panel's end lies the next panel, except after the last row of the last).
    const int64_t tail_rows = std::min(k, (overhang + ldb - 1) / ldb);
    const int64_t k_direct = k - tail_rows;
    float* tail = packing_buffer(std::max<int64_t>(tail_rows, 1) * vectors * kLanes);
    pack_rows(b + j + k_direct * ldb, ldb, false, width, tail_rows, vectors, tail);
    long_dispatch(a, a_row_stride, a_inner_stride, b + j, ldb, tail, k_direct, k, c + j, ldc, m,
                  width, vectors);
  }
}

void gemm_wide(const float* a, int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc,
               int64_t m, int64_t n, int64_t k) {
  constexpr int64_t kBlock = 2 * kLanes;
  const int64_t full = n - n % kBlock;
  float* tail = packing_buffer(std::max<int64_t>(k, 1) * kBlock);
  pack_rows(b + full, ldb, false, n - full, k, 2, tail);
  for (int64_t i = 0; i < m; i += kWideMaxRows) {
    wide_dispatch(a + i * lda, lda, b, ldb, tail, c + i * ldc, ldc,
                  std::min<int64_t>(kWideMaxRows, m - i), n, k);
  }
}

}  // namespace partonfit
