// Data movement without arithmetic: transpose, concatenation and strided slices of float32 and
// other 4-byte element tensors (the kernels copy bits, so int32 works as well).
#pragma once

#include <cstdint>

#include "elementwise.h"

namespace partonfit {

// out = x transposed by perm: out's dimension d is x's dimension perm[d]. Rank <= kMaxRank.
void transpose(const uint32_t* x, const int32_t* shape, const int32_t* perm, int rank,
               uint32_t* out);

// Concatenation along one axis, as `outer` rows: row o of the output is row o of every input
// in turn, input i contributing row_lengths[i] elements.
void concat(const uint32_t* const* inputs, const int64_t* row_lengths, int count, int64_t outer,
            uint32_t* out);

// out = x[begin[0] : begin[0] + size[0], ...] for a rank <= kMaxRank x of the given shape.
void slice(const uint32_t* x, const int32_t* shape, const int32_t* begin, const int32_t* size,
           int rank, uint32_t* out);

// out (out_shape) = fill everywhere except the block starting at `before` in every dimension,
// which holds x (shape). Ranks equal, <= kMaxRank; out_shape[d] >= before[d] + shape[d].
void pad(const uint32_t* x, const int32_t* shape, const int32_t* before, const int32_t* out_shape,
         int rank, uint32_t fill, uint32_t* out);

}  // namespace partonfit
