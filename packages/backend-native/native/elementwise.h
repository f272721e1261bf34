// Element-wise float32 kernels: unary maps, binary operations with NumPy broadcasting, select.
// The numbers of the enums are shared with the TypeScript side (src/addon/op-codes.ts).
#pragma once

#include <cstdint>

namespace partonfit {

enum class UnaryOp : int32_t {
  kIdentity = 0,
  kExp = 1,
  kLog = 2,
  kTanh = 3,
  kSigmoid = 4,
  kSqrt = 5,
  kSquare = 6,
  kElu = 7,
  kNeg = 8,
  kAbs = 9,
  kRelu = 10,
  kRelu6 = 11,
  kRsqrt = 12,
  kReciprocal = 13,
  kSoftplus = 14,
  kLog1p = 15,
  kExpm1 = 16,
  kLeakyRelu = 17,  // alpha: the slope below zero
  kStep = 18,       // alpha: the value at and below zero
};
constexpr int32_t kUnaryOpCount = 19;

enum class BinaryOp : int32_t {
  kAdd = 0,
  kSub = 1,
  kMul = 2,
  kDiv = 3,
  kPow = 4,
  kMaximum = 5,
  kMinimum = 6,
  kSquaredDifference = 7,
  kEluGrad = 8,  // (dy, y) -> y >= 0 ? dy : dy * (y + 1)
};
constexpr int32_t kBinaryOpCount = 9;

// y[i] = op(x[i]) for i in [0, count); x and y may be the same array.
void unary(UnaryOp op, float alpha, const float* x, float* y, int64_t count);

// unary() on the calling thread only.
void unary_serial(UnaryOp op, float alpha, const float* x, float* y, int64_t count);

// A shape of at most kMaxRank dimensions.
constexpr int kMaxRank = 8;

// out = op(a, b) with NumPy broadcasting of the shapes (ranks at most kMaxRank, aligned on the
// right); out has the broadcast shape. out may alias a or b when that operand has out's shape.
void binary(BinaryOp op, const float* a, const int32_t* a_shape, int a_rank, const float* b,
            const int32_t* b_shape, int b_rank, float* out, const int32_t* out_shape,
            int out_rank);

enum class CompareOp : int32_t {
  kEqual = 0,
  kNotEqual = 1,
  kLess = 2,
  kLessEqual = 3,
  kGreater = 4,
  kGreaterEqual = 5,
};
constexpr int32_t kCompareOpCount = 6;

// out = op(a, b) as 0 / 1 bytes, with the broadcasting of binary(); NaN compares unequal.
void compare(CompareOp op, const float* a, const int32_t* a_shape, int a_rank, const float* b,
             const int32_t* b_shape, int b_rank, uint8_t* out, const int32_t* out_shape,
             int out_rank);

// out[i] = condition[i] ? t[i] : e[i] for i in [0, count).
void select(const uint8_t* condition, const float* t, const float* e, float* out, int64_t count);

// Elements below which a kernel runs on the calling thread only.
constexpr int64_t kParallelElements = 1 << 17;

}  // namespace partonfit
