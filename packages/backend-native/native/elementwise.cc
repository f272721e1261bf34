#include "elementwise.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fast_math.h"
#include "thread_pool.h"

namespace partonfit {

namespace {

// Splits [0, count) over the pool when count is large enough to pay for the hand-off.
template <class Body>
void for_ranges(int64_t count, Body body) {
  if (count < kParallelElements) {
    body(int64_t{0}, count);
    return;
  }
  ThreadPool::instance().parallel_for(count, kParallelElements / 2,
                                      [&](int64_t begin, int64_t end) { body(begin, end); });
}

template <class F>
void map_range(const float* x, float* y, int64_t begin, int64_t end, F f) {
  for (int64_t i = begin; i < end; ++i) y[i] = f(x[i]);
}

// Softplus as the cpu backend computes it: exp(x) far below zero, x far above, else log1p(exp).
float softplus(float x) {
  constexpr float kThreshold = -13.942385152878742f;  // log(float32 epsilon) + 2
  if (x < kThreshold) return std::exp(x);
  if (x > -kThreshold) return x;
  return static_cast<float>(std::log1p(std::exp(static_cast<double>(x))));
}

void unary_range(UnaryOp op, float alpha, const float* x, float* y, int64_t begin, int64_t end) {
  switch (op) {
    case UnaryOp::kIdentity:
      if (x != y) std::copy(x + begin, x + end, y + begin);
      return;
    case UnaryOp::kExp:
      fast_exp(x + begin, y + begin, end - begin);
      return;
    case UnaryOp::kLog:
      return map_range(x, y, begin, end, [](float v) { return std::log(v); });
    case UnaryOp::kTanh:
      fast_tanh(x + begin, y + begin, end - begin);
      return;
    case UnaryOp::kSigmoid:
      fast_sigmoid(x + begin, y + begin, end - begin);
      return;
    case UnaryOp::kSqrt:
      return map_range(x, y, begin, end, [](float v) { return std::sqrt(v); });
    case UnaryOp::kSquare:
      return map_range(x, y, begin, end, [](float v) { return v * v; });
    case UnaryOp::kElu:
      return map_range(x, y, begin, end, [](float v) { return v >= 0.0f ? v : std::expm1(v); });
    case UnaryOp::kNeg:
      return map_range(x, y, begin, end, [](float v) { return -v; });
    case UnaryOp::kAbs:
      return map_range(x, y, begin, end, [](float v) { return std::fabs(v); });
    case UnaryOp::kRelu:
      return map_range(x, y, begin, end, [](float v) { return v < 0.0f ? 0.0f : v; });
    case UnaryOp::kRelu6:
      return map_range(x, y, begin, end,
                       [](float v) { return v < 0.0f ? 0.0f : (v > 6.0f ? 6.0f : v); });
    case UnaryOp::kRsqrt:
      return map_range(x, y, begin, end, [](float v) { return 1.0f / std::sqrt(v); });
    case UnaryOp::kReciprocal:
      return map_range(x, y, begin, end, [](float v) { return 1.0f / v; });
    case UnaryOp::kSoftplus:
      return map_range(x, y, begin, end, softplus);
    case UnaryOp::kLog1p:
      return map_range(x, y, begin, end, [](float v) { return std::log1p(v); });
    case UnaryOp::kExpm1:
      return map_range(x, y, begin, end, [](float v) { return std::expm1(v); });
    case UnaryOp::kLeakyRelu:
      return map_range(x, y, begin, end, [alpha](float v) { return v < 0.0f ? alpha * v : v; });
    case UnaryOp::kStep:
      return map_range(x, y, begin, end, [alpha](float v) {
        return std::isnan(v) ? v : (v > 0.0f ? 1.0f : alpha);
      });
  }
}

// Math.max / Math.min: NaN if either operand is NaN.
inline float js_max(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  return a > b ? a : b;
}
inline float js_min(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  return a < b ? a : b;
}

struct AddOp {
  float operator()(float a, float b) const { return a + b; }
};
struct SubOp {
  float operator()(float a, float b) const { return a - b; }
};
struct MulOp {
  float operator()(float a, float b) const { return a * b; }
};
struct DivOp {
  float operator()(float a, float b) const { return a / b; }
};
struct PowOp {
  float operator()(float a, float b) const {
    return static_cast<float>(std::pow(static_cast<double>(a), static_cast<double>(b)));
  }
};
struct MaximumOp {
  float operator()(float a, float b) const { return js_max(a, b); }
};
struct MinimumOp {
  float operator()(float a, float b) const { return js_min(a, b); }
};
// In float64 and rounded once, like the cpu backend.
struct SquaredDifferenceOp {
  float operator()(float a, float b) const {
    const double d = static_cast<double>(a) - static_cast<double>(b);
    return static_cast<float>(d * d);
  }
};
struct EluGradOp {
  float operator()(float dy, float y) const {
    return y >= 0.0f ? dy
                     : static_cast<float>(static_cast<double>(dy) * (static_cast<double>(y) + 1.0));
  }
};

struct EqualOp {
  uint8_t operator()(float a, float b) const { return a == b; }
};
struct NotEqualOp {
  uint8_t operator()(float a, float b) const { return a != b; }
};
struct LessOp {
  uint8_t operator()(float a, float b) const { return a < b; }
};
struct LessEqualOp {
  uint8_t operator()(float a, float b) const { return a <= b; }
};
struct GreaterOp {
  uint8_t operator()(float a, float b) const { return a > b; }
};
struct GreaterEqualOp {
  uint8_t operator()(float a, float b) const { return a >= b; }
};

// The broadcast operation reduced to its simplest form: an odometer over `rank - 1` outer
// dimensions and a contiguous (stride 1) or broadcast (stride 0) innermost dimension.
struct BroadcastPlan {
  int rank = 0;
  int64_t dims[kMaxRank] = {};
  int64_t a_strides[kMaxRank] = {};
  int64_t b_strides[kMaxRank] = {};
};

BroadcastPlan plan_broadcast(const int32_t* a_shape, int a_rank, const int32_t* b_shape,
                             int b_rank, const int32_t* out_shape, int out_rank) {
  // Align both operands on the right and give broadcast dimensions stride 0.
  int64_t dims[kMaxRank], a_strides[kMaxRank], b_strides[kMaxRank];
  int64_t a_stride = 1, b_stride = 1;
  for (int d = out_rank - 1; d >= 0; --d) {
    const int a_d = d - (out_rank - a_rank);
    const int b_d = d - (out_rank - b_rank);
    const int64_t a_dim = a_d >= 0 ? a_shape[a_d] : 1;
    const int64_t b_dim = b_d >= 0 ? b_shape[b_d] : 1;
    dims[d] = out_shape[d];
    a_strides[d] = (a_dim == 1 && dims[d] != 1) ? 0 : a_stride;
    b_strides[d] = (b_dim == 1 && dims[d] != 1) ? 0 : b_stride;
    a_stride *= a_dim;
    b_stride *= b_dim;
  }
  // Drop size-1 dimensions and merge neighbours that both operands walk the same way.
  BroadcastPlan plan;
  for (int d = 0; d < out_rank; ++d) {
    if (dims[d] == 1) continue;
    const int last = plan.rank - 1;
    if (last >= 0 && plan.a_strides[last] == a_strides[d] * dims[d] &&
        plan.b_strides[last] == b_strides[d] * dims[d]) {
      plan.dims[last] *= dims[d];
      plan.a_strides[last] = a_strides[d];
      plan.b_strides[last] = b_strides[d];
      continue;
    }
    plan.dims[plan.rank] = dims[d];
    plan.a_strides[plan.rank] = a_strides[d];
    plan.b_strides[plan.rank] = b_strides[d];
    ++plan.rank;
  }
  if (plan.rank == 0) {
    plan.rank = 1;
    plan.dims[0] = 1;
    plan.a_strides[0] = 1;
    plan.b_strides[0] = 1;
  }
  return plan;
}

template <class Op, class Out>
void inner_loop(Op op, const float* a, int64_t a_step, const float* b, int64_t b_step, Out* out,
                int64_t length) {
  if (a_step == 1 && b_step == 1) {
    for (int64_t i = 0; i < length; ++i) out[i] = op(a[i], b[i]);
  } else if (a_step == 1) {
    const float bv = *b;
    for (int64_t i = 0; i < length; ++i) out[i] = op(a[i], bv);
  } else if (b_step == 1) {
    const float av = *a;
    for (int64_t i = 0; i < length; ++i) out[i] = op(av, b[i]);
  } else {
    const Out value = op(*a, *b);
    for (int64_t i = 0; i < length; ++i) out[i] = value;
  }
}

// Output elements [begin, end) of the broadcast operation.
template <class Op, class Out>
void binary_range(Op op, const BroadcastPlan& plan, const float* a, const float* b, Out* out,
                  int64_t begin, int64_t end) {
  const int inner = plan.rank - 1;
  const int64_t length = plan.dims[inner];
  int64_t index[kMaxRank] = {};
  int64_t a_offset = 0, b_offset = 0;
  int64_t row = begin / length;
  for (int d = inner - 1; d >= 0; --d) {
    index[d] = row % plan.dims[d];
    row /= plan.dims[d];
    a_offset += index[d] * plan.a_strides[d];
    b_offset += index[d] * plan.b_strides[d];
  }
  int64_t position = begin;
  int64_t column = begin % length;
  while (position < end) {
    const int64_t run = std::min(length - column, end - position);
    inner_loop(op, a + a_offset + column * plan.a_strides[inner], plan.a_strides[inner],
               b + b_offset + column * plan.b_strides[inner], plan.b_strides[inner],
               out + position, run);
    position += run;
    column = 0;
    for (int d = inner - 1; d >= 0; --d) {
      a_offset += plan.a_strides[d];
      b_offset += plan.b_strides[d];
      if (++index[d] < plan.dims[d]) break;
      a_offset -= index[d] * plan.a_strides[d];
      b_offset -= index[d] * plan.b_strides[d];
      index[d] = 0;
    }
  }
}

template <class Op, class Out>
void run_binary(Op op, const BroadcastPlan& plan, const float* a, const float* b, Out* out) {
  int64_t count = 1;
  for (int d = 0; d < plan.rank; ++d) count *= plan.dims[d];
  for_ranges(count, [&](int64_t begin, int64_t end) {
    binary_range(op, plan, a, b, out, begin, end);
  });
}

}  // namespace

void unary_serial(UnaryOp op, float alpha, const float* x, float* y, int64_t count) {
  unary_range(op, alpha, x, y, 0, count);
}

void unary(UnaryOp op, float alpha, const float* x, float* y, int64_t count) {
  for_ranges(count, [&](int64_t begin, int64_t end) { unary_range(op, alpha, x, y, begin, end); });
}

void binary(BinaryOp op, const float* a, const int32_t* a_shape, int a_rank, const float* b,
            const int32_t* b_shape, int b_rank, float* out, const int32_t* out_shape,
            int out_rank) {
  const BroadcastPlan plan = plan_broadcast(a_shape, a_rank, b_shape, b_rank, out_shape, out_rank);
  switch (op) {
    case BinaryOp::kAdd:
      return run_binary(AddOp{}, plan, a, b, out);
    case BinaryOp::kSub:
      return run_binary(SubOp{}, plan, a, b, out);
    case BinaryOp::kMul:
      return run_binary(MulOp{}, plan, a, b, out);
    case BinaryOp::kDiv:
      return run_binary(DivOp{}, plan, a, b, out);
    case BinaryOp::kPow:
      return run_binary(PowOp{}, plan, a, b, out);
    case BinaryOp::kMaximum:
      return run_binary(MaximumOp{}, plan, a, b, out);
    case BinaryOp::kMinimum:
      return run_binary(MinimumOp{}, plan, a, b, out);
    case BinaryOp::kSquaredDifference:
      return run_binary(SquaredDifferenceOp{}, plan, a, b, out);
    case BinaryOp::kEluGrad:
      return run_binary(EluGradOp{}, plan, a, b, out);
  }
}

void compare(CompareOp op, const float* a, const int32_t* a_shape, int a_rank, const float* b,
             const int32_t* b_shape, int b_rank, uint8_t* out, const int32_t* out_shape,
             int out_rank) {
  const BroadcastPlan plan = plan_broadcast(a_shape, a_rank, b_shape, b_rank, out_shape, out_rank);
  switch (op) {
    case CompareOp::kEqual:
      return run_binary(EqualOp{}, plan, a, b, out);
    case CompareOp::kNotEqual:
      return run_binary(NotEqualOp{}, plan, a, b, out);
    case CompareOp::kLess:
      return run_binary(LessOp{}, plan, a, b, out);
    case CompareOp::kLessEqual:
      return run_binary(LessEqualOp{}, plan, a, b, out);
    case CompareOp::kGreater:
      return run_binary(GreaterOp{}, plan, a, b, out);
    case CompareOp::kGreaterEqual:
      return run_binary(GreaterEqualOp{}, plan, a, b, out);
  }
}

void select(const uint8_t* condition, const float* t, const float* e, float* out, int64_t count) {
  for_ranges(count, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) out[i] = condition[i] ? t[i] : e[i];
  });
}

}  // namespace partonfit
