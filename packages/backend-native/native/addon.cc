// The N-API surface of the native backend: every function works on the typed arrays that hold
// the tensors (inputs read in place, the output written into a caller-allocated array) and
// checks the lengths it is given before touching memory.
#include <napi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "blas.h"
#include "dense_network.h"
#include "elementwise.h"
#include "layout.h"
#include "luminosity.h"
#include "luminosity_planes.h"
#include "peak.h"
#include "matmul.h"
#include "optimizer.h"
#include "reduce.h"
#include "simd.h"
#include "stopping.h"
#include "thread_pool.h"

namespace partonfit {

namespace {

BlasInfo& blas_info() {
  static BlasInfo info = configure_blas();
  return info;
}

[[noreturn]] void fail(const Napi::Env& env, const std::string& message) {
  throw Napi::RangeError::New(env, "partonfit native: " + message);
}

template <class T>
struct ArrayView {
  T* data = nullptr;
  int64_t length = 0;
};

// A typed array argument of the given element type (napi_float32_array, ...).
template <class T>
ArrayView<T> typed_array(const Napi::CallbackInfo& info, size_t index, napi_typedarray_type type,
                         const char* name) {
  const Napi::Value value = info[index];
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != type) {
    fail(info.Env(), std::string(name) + " has the wrong array type");
  }
  Napi::TypedArray array = value.As<Napi::TypedArray>();
  auto* base = static_cast<uint8_t*>(array.ArrayBuffer().Data());
  return {reinterpret_cast<T*>(base + array.ByteOffset()),
          static_cast<int64_t>(array.ElementLength())};
}

// Any typed array of 4-byte elements (float32, int32, uint32), as raw bits.
ArrayView<uint32_t> four_byte_array(const Napi::CallbackInfo& info, size_t index,
                                    const char* name) {
  const Napi::Value value = info[index];
  if (!value.IsTypedArray()) fail(info.Env(), std::string(name) + " is not a typed array");
  Napi::TypedArray array = value.As<Napi::TypedArray>();
  const napi_typedarray_type type = array.TypedArrayType();
  if (type != napi_float32_array && type != napi_int32_array && type != napi_uint32_array) {
    fail(info.Env(), std::string(name) + " must have 4-byte elements");
  }
  auto* base = static_cast<uint8_t*>(array.ArrayBuffer().Data());
  return {reinterpret_cast<uint32_t*>(base + array.ByteOffset()),
          static_cast<int64_t>(array.ElementLength())};
}

ArrayView<float> floats(const Napi::CallbackInfo& info, size_t index, const char* name) {
  return typed_array<float>(info, index, napi_float32_array, name);
}

ArrayView<int32_t> ints(const Napi::CallbackInfo& info, size_t index, const char* name) {
  return typed_array<int32_t>(info, index, napi_int32_array, name);
}

int64_t integer(const Napi::CallbackInfo& info, size_t index, const char* name) {
  if (!info[index].IsNumber()) fail(info.Env(), std::string(name) + " is not a number");
  return info[index].As<Napi::Number>().Int64Value();
}

// The product of a shape's dimensions, after checking that it is a valid shape.
int64_t shape_size(const Napi::Env& env, const ArrayView<int32_t>& shape, const char* name) {
  if (shape.length > kMaxRank) fail(env, std::string(name) + " has rank above 8");
  int64_t size = 1;
  for (int64_t d = 0; d < shape.length; ++d) {
    if (shape.data[d] < 0) fail(env, std::string(name) + " has a negative dimension");
    size *= shape.data[d];
  }
  return size;
}

void require_length(const Napi::Env& env, int64_t actual, int64_t expected, const char* name) {
  if (actual < expected) {
    fail(env, std::string(name) + " holds " + std::to_string(actual) + " elements, needs " +
                  std::to_string(expected));
  }
}

// Optional Int32Array: null/undefined gives a null pointer.
const int32_t* optional_ints(const Napi::CallbackInfo& info, size_t index, int64_t needed,
                             const char* name) {
  if (info[index].IsNull() || info[index].IsUndefined()) return nullptr;
  const ArrayView<int32_t> view = ints(info, index, name);
  require_length(info.Env(), view.length, needed, name);
  return view.data;
}

Napi::Value Info(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const BlasInfo& blas = blas_info();
  Napi::Object result = Napi::Object::New(env);
  result.Set("blas", blas.library);
  result.Set("blasCore", blas.core);
  result.Set("blasConfig", blas.config);
  result.Set("blasThreads", blas.threads);
  result.Set("vectorPath", vector_path_name(vector_path()));
  result.Set("threads", ThreadPool::instance().threads());
  result.Set("planeReplicas", static_cast<double>(kPlaneReplicas));
  return result;
}

// matMul(a, b, out, batch, m, n, k, transposeA, transposeB, aIndex, bIndex, aMatrices,
//        bMatrices, bias, biasIndex, biasColumnStride, activation, alpha)
Napi::Value MatMul(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 18) fail(env, "matMul takes 18 arguments");
  MatMulProblem p;
  const ArrayView<float> a = floats(info, 0, "a");
  const ArrayView<float> b = floats(info, 1, "b");
  const ArrayView<float> out = floats(info, 2, "out");
  p.batch = integer(info, 3, "batch");
  p.m = integer(info, 4, "m");
  p.n = integer(info, 5, "n");
  p.k = integer(info, 6, "k");
  p.transpose_a = info[7].ToBoolean().Value();
  p.transpose_b = info[8].ToBoolean().Value();
  p.a_matrices = integer(info, 11, "aMatrices");
  p.b_matrices = integer(info, 12, "bMatrices");
  if (p.batch < 0 || p.m < 0 || p.n < 0 || p.k < 0 || p.a_matrices < 1 || p.b_matrices < 1) {
    fail(env, "matMul: negative size or no matrices");
  }
  p.a_index = optional_ints(info, 9, p.batch, "aIndex");
  p.b_index = optional_ints(info, 10, p.batch, "bIndex");
  for (int64_t i = 0; p.a_index != nullptr && i < p.batch; ++i) {
    if (p.a_index[i] < 0 || p.a_index[i] >= p.a_matrices) fail(env, "aIndex out of range");
  }
  for (int64_t i = 0; p.b_index != nullptr && i < p.batch; ++i) {
    if (p.b_index[i] < 0 || p.b_index[i] >= p.b_matrices) fail(env, "bIndex out of range");
  }
  if (p.a_index == nullptr && p.a_matrices != 1 && p.a_matrices != p.batch) {
    fail(env, "aMatrices must be 1 or batch without aIndex");
  }
  if (p.b_index == nullptr && p.b_matrices != 1 && p.b_matrices != p.batch) {
    fail(env, "bMatrices must be 1 or batch without bIndex");
  }
  require_length(env, a.length, p.a_matrices * p.m * p.k, "a");
  require_length(env, b.length, p.b_matrices * p.k * p.n, "b");
  require_length(env, out.length, p.batch * p.m * p.n, "out");
  p.a = a.data;
  p.b = b.data;
  p.out = out.data;

  MatMulEpilogue epilogue;
  if (!info[13].IsNull() && !info[13].IsUndefined()) {
    const ArrayView<float> bias = floats(info, 13, "bias");
    epilogue.bias_column_stride = integer(info, 15, "biasColumnStride") == 0 ? 0 : 1;
    const int64_t row = epilogue.bias_column_stride == 0 ? 1 : p.n;
    epilogue.bias_index = optional_ints(info, 14, p.batch, "biasIndex");
    int64_t rows = 1;
    for (int64_t i = 0; epilogue.bias_index != nullptr && i < p.batch; ++i) {
      if (epilogue.bias_index[i] < 0) fail(env, "biasIndex out of range");
      rows = std::max<int64_t>(rows, epilogue.bias_index[i] + 1);
    }
    require_length(env, bias.length, rows * row, "bias");
    epilogue.bias = bias.data;
  }
  const int64_t activation = integer(info, 16, "activation");
  if (activation < 0 || activation >= kUnaryOpCount) fail(env, "unknown activation");
  epilogue.activation = static_cast<UnaryOp>(activation);
  epilogue.alpha = static_cast<float>(info[17].ToNumber().DoubleValue());
  matmul(p, epilogue);
  return env.Undefined();
}

// Checks that a and b broadcast to out_shape and that every array is long enough.
void check_broadcast(const Napi::Env& env, const ArrayView<float>& a,
                     const ArrayView<int32_t>& a_shape, const ArrayView<float>& b,
                     const ArrayView<int32_t>& b_shape, int64_t out_length,
                     const ArrayView<int32_t>& out_shape) {
  require_length(env, a.length, shape_size(env, a_shape, "aShape"), "a");
  require_length(env, b.length, shape_size(env, b_shape, "bShape"), "b");
  require_length(env, out_length, shape_size(env, out_shape, "outShape"), "out");
  if (a_shape.length > out_shape.length || b_shape.length > out_shape.length) {
    fail(env, "operand rank above the output rank");
  }
  for (int64_t d = 0; d < out_shape.length; ++d) {
    const int64_t a_d = d - (out_shape.length - a_shape.length);
    const int64_t b_d = d - (out_shape.length - b_shape.length);
    const int32_t dim = out_shape.data[d];
    if ((a_d >= 0 && a_shape.data[a_d] != dim && a_shape.data[a_d] != 1) ||
        (b_d >= 0 && b_shape.data[b_d] != dim && b_shape.data[b_d] != 1)) {
      fail(env, "shapes do not broadcast to the output shape");
    }
  }
}

// unary(op, alpha, x, out)
Napi::Value Unary(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const int64_t op = integer(info, 0, "op");
  if (op < 0 || op >= kUnaryOpCount) fail(env, "unknown unary op");
  const float alpha = static_cast<float>(info[1].ToNumber().DoubleValue());
  const ArrayView<float> x = floats(info, 2, "x");
  const ArrayView<float> out = floats(info, 3, "out");
  require_length(env, out.length, x.length, "out");
  unary(static_cast<UnaryOp>(op), alpha, x.data, out.data, x.length);
  return env.Undefined();
}

// binary(op, a, aShape, b, bShape, out, outShape)
Napi::Value Binary(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const int64_t op = integer(info, 0, "op");
  if (op < 0 || op >= kBinaryOpCount) fail(env, "unknown binary op");
  const ArrayView<float> a = floats(info, 1, "a");
  const ArrayView<int32_t> a_shape = ints(info, 2, "aShape");
  const ArrayView<float> b = floats(info, 3, "b");
  const ArrayView<int32_t> b_shape = ints(info, 4, "bShape");
  const ArrayView<float> out = floats(info, 5, "out");
  const ArrayView<int32_t> out_shape = ints(info, 6, "outShape");
  check_broadcast(env, a, a_shape, b, b_shape, out.length, out_shape);
  binary(static_cast<BinaryOp>(op), a.data, a_shape.data, static_cast<int>(a_shape.length),
         b.data, b_shape.data, static_cast<int>(b_shape.length), out.data, out_shape.data,
         static_cast<int>(out_shape.length));
  return env.Undefined();
}

// compare(op, a, aShape, b, bShape, out, outShape)
Napi::Value Compare(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const int64_t op = integer(info, 0, "op");
  if (op < 0 || op >= kCompareOpCount) fail(env, "unknown comparison");
  const ArrayView<float> a = floats(info, 1, "a");
  const ArrayView<int32_t> a_shape = ints(info, 2, "aShape");
  const ArrayView<float> b = floats(info, 3, "b");
  const ArrayView<int32_t> b_shape = ints(info, 4, "bShape");
  const ArrayView<uint8_t> out = typed_array<uint8_t>(info, 5, napi_uint8_array, "out");
  const ArrayView<int32_t> out_shape = ints(info, 6, "outShape");
  check_broadcast(env, a, a_shape, b, b_shape, out.length, out_shape);
  compare(static_cast<CompareOp>(op), a.data, a_shape.data, static_cast<int>(a_shape.length),
          b.data, b_shape.data, static_cast<int>(b_shape.length), out.data, out_shape.data,
          static_cast<int>(out_shape.length));
  return env.Undefined();
}

// select(condition, t, e, out)
Napi::Value Select(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const ArrayView<uint8_t> condition = typed_array<uint8_t>(info, 0, napi_uint8_array, "condition");
  const ArrayView<float> t = floats(info, 1, "t");
  const ArrayView<float> e = floats(info, 2, "e");
  const ArrayView<float> out = floats(info, 3, "out");
  require_length(env, condition.length, out.length, "condition");
  require_length(env, t.length, out.length, "t");
  require_length(env, e.length, out.length, "e");
  select(condition.data, t.data, e.data, out.data, out.length);
  return env.Undefined();
}

// reduce(op, x, outer, reduced, inner, out)
Napi::Value Reduce(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const int64_t op = integer(info, 0, "op");
  if (op < 0 || op >= kReduceOpCount) fail(env, "unknown reduction");
  const ArrayView<float> x = floats(info, 1, "x");
  const int64_t outer = integer(info, 2, "outer");
  const int64_t reduced = integer(info, 3, "reduced");
  const int64_t inner = integer(info, 4, "inner");
  const ArrayView<float> out = floats(info, 5, "out");
  if (outer < 0 || reduced < 0 || inner < 0) fail(env, "reduce: negative size");
  require_length(env, x.length, outer * reduced * inner, "x");
  require_length(env, out.length, outer * inner, "out");
  reduce(static_cast<ReduceOp>(op), x.data, outer, reduced, inner, out.data);
  return env.Undefined();
}

// transpose(x, shape, perm, out)
Napi::Value Transpose(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const ArrayView<uint32_t> x = four_byte_array(info, 0, "x");
  const ArrayView<int32_t> shape = ints(info, 1, "shape");
  const ArrayView<int32_t> perm = ints(info, 2, "perm");
  const ArrayView<uint32_t> out = four_byte_array(info, 3, "out");
  const int64_t size = shape_size(env, shape, "shape");
  if (perm.length != shape.length) fail(env, "perm and shape differ in rank");
  bool seen[kMaxRank] = {};
  for (int64_t d = 0; d < perm.length; ++d) {
    if (perm.data[d] < 0 || perm.data[d] >= perm.length || seen[perm.data[d]]) {
      fail(env, "perm is not a permutation");
    }
    seen[perm.data[d]] = true;
  }
  require_length(env, x.length, size, "x");
  require_length(env, out.length, size, "out");
  transpose(x.data, shape.data, perm.data, static_cast<int>(shape.length), out.data);
  return env.Undefined();
}

// concat(inputs, rowLengths, outer, out)
Napi::Value Concat(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (!info[0].IsArray()) fail(env, "inputs is not an array");
  const Napi::Array list = info[0].As<Napi::Array>();
  const ArrayView<int32_t> row_lengths = ints(info, 1, "rowLengths");
  const int64_t outer = integer(info, 2, "outer");
  const ArrayView<uint32_t> out = four_byte_array(info, 3, "out");
  const uint32_t count = list.Length();
  if (row_lengths.length != count) fail(env, "one row length per input");
  if (outer < 0) fail(env, "concat: negative size");
  std::vector<const uint32_t*> inputs(count);
  std::vector<int64_t> lengths(count);
  int64_t row = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const Napi::Value item = list.Get(i);
    if (!item.IsTypedArray()) fail(env, "concat input is not a typed array");
    Napi::TypedArray array = item.As<Napi::TypedArray>();
    if (array.TypedArrayType() != napi_float32_array && array.TypedArrayType() != napi_int32_array) {
      fail(env, "concat input must have 4-byte elements");
    }
    if (row_lengths.data[i] < 0) fail(env, "concat: negative row length");
    lengths[i] = row_lengths.data[i];
    require_length(env, static_cast<int64_t>(array.ElementLength()), outer * lengths[i], "input");
    auto* base = static_cast<uint8_t*>(array.ArrayBuffer().Data());
    inputs[i] = reinterpret_cast<const uint32_t*>(base + array.ByteOffset());
    row += lengths[i];
  }
  require_length(env, out.length, outer * row, "out");
  concat(inputs.data(), lengths.data(), static_cast<int>(count), outer, out.data);
  return env.Undefined();
}

// slice(x, shape, begin, size, out)
Napi::Value Slice(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const ArrayView<uint32_t> x = four_byte_array(info, 0, "x");
  const ArrayView<int32_t> shape = ints(info, 1, "shape");
  const ArrayView<int32_t> begin = ints(info, 2, "begin");
  const ArrayView<int32_t> size = ints(info, 3, "size");
  const ArrayView<uint32_t> out = four_byte_array(info, 4, "out");
  if (begin.length != shape.length || size.length != shape.length) {
    fail(env, "begin, size and shape differ in rank");
  }
  require_length(env, x.length, shape_size(env, shape, "shape"), "x");
  require_length(env, out.length, shape_size(env, size, "size"), "out");
  for (int64_t d = 0; d < shape.length; ++d) {
    if (begin.data[d] < 0 || size.data[d] < 0 ||
        static_cast<int64_t>(begin.data[d]) + size.data[d] > shape.data[d]) {
      fail(env, "slice out of bounds");
    }
  }
  slice(x.data, shape.data, begin.data, size.data, static_cast<int>(shape.length), out.data);
  return env.Undefined();
}

// pad(x, shape, before, outShape, value, out)
Napi::Value Pad(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const ArrayView<uint32_t> x = four_byte_array(info, 0, "x");
  const ArrayView<int32_t> shape = ints(info, 1, "shape");
  const ArrayView<int32_t> before = ints(info, 2, "before");
  const ArrayView<int32_t> out_shape = ints(info, 3, "outShape");
  const double value = info[4].ToNumber().DoubleValue();
  const ArrayView<uint32_t> out = four_byte_array(info, 5, "out");
  if (before.length != shape.length || out_shape.length != shape.length) {
    fail(env, "before, outShape and shape differ in rank");
  }
  require_length(env, x.length, shape_size(env, shape, "shape"), "x");
  require_length(env, out.length, shape_size(env, out_shape, "outShape"), "out");
  for (int64_t d = 0; d < shape.length; ++d) {
    if (before.data[d] < 0 ||
        static_cast<int64_t>(before.data[d]) + shape.data[d] > out_shape.data[d]) {
      fail(env, "pad: the input does not fit in the output");
    }
  }
  // The fill value in the output's element type.
  uint32_t fill = 0;
  if (info[5].As<Napi::TypedArray>().TypedArrayType() == napi_float32_array) {
    const float as_float = static_cast<float>(value);
    std::memcpy(&fill, &as_float, sizeof fill);
  } else {
    const int32_t as_int = static_cast<int32_t>(value);
    std::memcpy(&fill, &as_int, sizeof fill);
  }
  pad(x.data, shape.data, before.data, out_shape.data, static_cast<int>(shape.length), fill,
      out.data);
  return env.Undefined();
}

// The support of a table (luminosity_support's layout) at argument `index` when one is given:
// checked entry by entry, since the kernels index the table with it.
const int32_t* luminosity_support_argument(const Napi::CallbackInfo& info, size_t index,
                                           const LuminosityProblem& p) {
  const Napi::Env env = info.Env();
  const int32_t* support = optional_ints(info, index, p.channels * p.x * p.data * 2, "support");
  if (support == nullptr) return nullptr;
  for (int64_t i = 0; i < p.channels * p.x * p.data; ++i) {
    const int32_t begin = support[2 * i], end = support[2 * i + 1];
    if (begin < 0 || end < begin || end > p.x) {
      fail(env, "luminosity contraction: support entry " + std::to_string(i) + " is [" +
                    std::to_string(begin) + ", " + std::to_string(end) + "), not a range of x2 points in [0, " +
                    std::to_string(p.x) + "]");
    }
  }
  return support;
}

// The arrays and sizes of a luminosity contraction, checked against each other: arguments pdf,
// fk, firstFlavours, secondFlavours at `index`, then replicas, x, flavours, data at `index + 4`.
LuminosityProblem luminosity_problem(const Napi::CallbackInfo& info, size_t index) {
  const Napi::Env env = info.Env();
  const ArrayView<float> pdf = floats(info, index, "pdf");
  const ArrayView<float> fk = floats(info, index + 1, "fk");
  const ArrayView<int32_t> first_flavour = ints(info, index + 2, "firstFlavours");
  const ArrayView<int32_t> second_flavour = ints(info, index + 3, "secondFlavours");
  LuminosityProblem p;
  p.replicas = integer(info, index + 4, "replicas");
  p.x = integer(info, index + 5, "x");
  p.flavours = integer(info, index + 6, "flavours");
  p.data = integer(info, index + 7, "data");
  p.channels = static_cast<int64_t>(first_flavour.length);
  if (p.replicas < 0 || p.x < 0 || p.flavours < 0 || p.data < 0) {
    fail(env, "luminosity contraction: negative size");
  }
  require_length(env, second_flavour.length, p.channels, "secondFlavours");
  for (int64_t c = 0; c < p.channels; ++c) {
    for (const int32_t flavour : {first_flavour.data[c], second_flavour.data[c]}) {
      if (flavour < 0 || flavour >= p.flavours) {
        fail(env, "luminosity contraction: channel " + std::to_string(c) + " names flavour " +
                      std::to_string(flavour) + ", outside [0, " + std::to_string(p.flavours) +
                      ")");
      }
    }
  }
  require_length(env, pdf.length, p.replicas * p.x * p.flavours, "pdf");
  require_length(env, fk.length, p.channels * p.x * p.x * p.data, "fk");
  p.pdf = pdf.data;
  p.fk = fk.data;
  p.first_flavour = first_flavour.data;
  p.second_flavour = second_flavour.data;
  return p;
}

// The half contractions (luminosity.h) at argument `index` when given: only below
// kPlaneReplicas replicas.
float* half_contractions_argument(const Napi::CallbackInfo& info, size_t index,
                                  const LuminosityProblem& p) {
  if (info[index].IsNull() || info[index].IsUndefined()) return nullptr;
  const Napi::Env env = info.Env();
  if (p.replicas >= kPlaneReplicas) {
    fail(env, "luminosity contraction: halfContractions are kept only below " +
                  std::to_string(kPlaneReplicas) + " replicas, not for " +
                  std::to_string(p.replicas));
  }
  const ArrayView<float> halves = floats(info, index, "halfContractions");
  require_length(env, halves.length, p.channels * 2 * p.replicas * p.x * p.data,
                 "halfContractions");
  return halves.data;
}

// luminosityContraction(pdf, fk, firstFlavours, secondFlavours, replicas, x, flavours, data, out,
// support?, halfContractions?)
Napi::Value LuminosityContraction(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 9) fail(env, "luminosityContraction takes 9 arguments");
  LuminosityProblem p = luminosity_problem(info, 0);
  p.support = luminosity_support_argument(info, 9, p);
  p.half_contractions = half_contractions_argument(info, 10, p);
  const ArrayView<float> out = floats(info, 8, "out");
  require_length(env, out.length, p.replicas * p.data, "out");
  luminosity_contraction(p, out.data);
  return env.Undefined();
}

// luminosityContractionGrad(dy, pdf, fk, firstFlavours, secondFlavours, replicas, x, flavours,
// data, dPdf, support?, halfContractions?): with the half contractions that
// luminosityContraction wrote for the same pdf and fk, the table is not read.
Napi::Value LuminosityContractionGrad(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 10) fail(env, "luminosityContractionGrad takes 10 arguments");
  const ArrayView<float> dy = floats(info, 0, "dy");
  LuminosityProblem p = luminosity_problem(info, 1);
  p.support = luminosity_support_argument(info, 10, p);
  p.half_contractions = half_contractions_argument(info, 11, p);
  const ArrayView<float> d_pdf = floats(info, 9, "dPdf");
  require_length(env, dy.length, p.replicas * p.data, "dy");
  require_length(env, d_pdf.length, p.replicas * p.x * p.flavours, "dPdf");
  luminosity_contraction_grad(p, dy.data, d_pdf.data);
  return env.Undefined();
}

// luminositySupport(fk, channels, x, data, support): where each column of the table is non-zero
// in x2, support (channels · x · data · 2).
Napi::Value LuminositySupport(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 5) fail(env, "luminositySupport takes 5 arguments");
  const ArrayView<float> fk = floats(info, 0, "fk");
  const int64_t channels = integer(info, 1, "channels");
  const int64_t x = integer(info, 2, "x");
  const int64_t data = integer(info, 3, "data");
  const ArrayView<int32_t> support = ints(info, 4, "support");
  if (channels < 0 || x < 0 || data < 0) fail(env, "luminositySupport: negative size");
  require_length(env, fk.length, channels * x * x * data, "fk");
  require_length(env, support.length, channels * x * data * 2, "support");
  luminosity_support(fk.data, channels, x, data, support.data);
  return env.Undefined();
}

// adamFamilyUpdate(variable, gradient, momentum, velocity, factors, update, oneMinusBeta1,
// oneMinusBeta2, epsilon, rows, variableOut, momentumOut, velocityOut)
Napi::Value AdamFamilyUpdate(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 13) fail(env, "adamFamilyUpdate takes 13 arguments");
  const ArrayView<float> variable = floats(info, 0, "variable");
  const ArrayView<float> gradient = floats(info, 1, "gradient");
  const ArrayView<float> momentum = floats(info, 2, "momentum");
  const ArrayView<float> velocity = floats(info, 3, "velocity");
  const ArrayView<float> factors = floats(info, 4, "factors");
  const ArrayView<float> update = floats(info, 5, "update");
  const AdamFamilyConstants constants{info[6].ToNumber().FloatValue(),
                                      info[7].ToNumber().FloatValue(),
                                      info[8].ToNumber().FloatValue()};
  const int64_t rows = integer(info, 9, "rows");
  const ArrayView<float> variable_out = floats(info, 10, "variableOut");
  const ArrayView<float> momentum_out = floats(info, 11, "momentumOut");
  const ArrayView<float> velocity_out = floats(info, 12, "velocityOut");
  if (rows < 1 || variable.length % rows != 0) fail(env, "adamFamilyUpdate: rows must divide the variable");
  require_length(env, gradient.length, variable.length, "gradient");
  require_length(env, momentum.length, variable.length, "momentum");
  require_length(env, velocity.length, variable.length, "velocity");
  require_length(env, factors.length, rows * 5, "factors");
  require_length(env, update.length, rows, "update");
  require_length(env, variable_out.length, variable.length, "variableOut");
  require_length(env, momentum_out.length, variable.length, "momentumOut");
  require_length(env, velocity_out.length, variable.length, "velocityOut");
  adam_family_update(variable.data, gradient.data, momentum.data, velocity.data, factors.data,
                     update.data, constants, rows, variable.length / rows, variable_out.data,
                     momentum_out.data, velocity_out.data);
  return env.Undefined();
}

// The float32 typed arrays of a JS array argument, each of `length` elements (any length when
// length < 0).
std::vector<float*> float_list(const Napi::CallbackInfo& info, size_t index, const char* name,
                               size_t count, int64_t length) {
  const Napi::Env env = info.Env();
  if (!info[index].IsArray()) fail(env, std::string(name) + " is not an array");
  const Napi::Array list = info[index].As<Napi::Array>();
  if (list.Length() != count) fail(env, std::string(name) + " has the wrong number of arrays");
  std::vector<float*> arrays(count);
  for (uint32_t i = 0; i < count; ++i) {
    const Napi::Value item = list.Get(i);
    if (!item.IsTypedArray() || item.As<Napi::TypedArray>().TypedArrayType() != napi_float32_array) {
      fail(env, std::string(name) + " holds an array that is not a Float32Array");
    }
    Napi::TypedArray array = item.As<Napi::TypedArray>();
    if (length >= 0) require_length(env, static_cast<int64_t>(array.ElementLength()), length, name);
    auto* base = static_cast<uint8_t*>(array.ArrayBuffer().Data());
    arrays[i] = reinterpret_cast<float*>(base + array.ByteOffset());
  }
  return arrays;
}

// stoppingUpdate(inputs[12], outputs[7], replicas, epoch, thresholdChi2, positivityThreshold,
// delta): inputs training, validation, validationChi2, positivity, bestValidation, bestEpoch,
// stopEpoch, waiting, counting, failed, patience, epochLimit, each (replicas).
Napi::Value StoppingUpdate(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 7) fail(env, "stoppingUpdate takes 7 arguments");
  const int64_t replicas = integer(info, 2, "replicas");
  const std::vector<float*> in = float_list(info, 0, "inputs", 12, replicas);
  const std::vector<float*> out = float_list(info, 1, "outputs", 7, replicas);
  const StoppingArrays arrays{in[0], in[1], in[2], in[3], in[4],  in[5],
                              in[6], in[7], in[8], in[9], in[10], in[11]};
  const StoppingSettingsNative settings{
      info[3].ToNumber().FloatValue(), info[4].ToNumber().FloatValue(),
      info[5].ToNumber().FloatValue(), info[6].ToNumber().FloatValue()};
  float* const outputs[7] = {out[0], out[1], out[2], out[3], out[4], out[5], out[6]};
  stopping_update(arrays, settings, replicas, outputs);
  return env.Undefined();
}

// keepBestRows(best, start, weight, snapshot, rows, out)
Napi::Value KeepBestRows(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 6) fail(env, "keepBestRows takes 6 arguments");
  const ArrayView<float> best = floats(info, 0, "best");
  const int64_t start = integer(info, 1, "start");
  const ArrayView<float> weight = floats(info, 2, "weight");
  const ArrayView<float> snapshot = floats(info, 3, "snapshot");
  const int64_t rows = integer(info, 4, "rows");
  const ArrayView<float> out = floats(info, 5, "out");
  if (rows < 1 || start < 0 || start + rows > best.length || weight.length % rows != 0) {
    fail(env, "keepBestRows: rows outside the replicas");
  }
  require_length(env, snapshot.length, weight.length, "snapshot");
  require_length(env, out.length, weight.length, "out");
  keep_best_rows(best.data, start, weight.data, snapshot.data, rows, weight.length / rows,
                 out.data);
  return env.Undefined();
}

// The network of denseNetwork/denseNetworkGrad from (activations, widths, passThrough, replicas,
// points, inputs, sharedInput, units, leakyReluAlpha) at argument `index` on, checked.
DenseNetwork dense_network_argument(const Napi::CallbackInfo& info, size_t index) {
  const Napi::Env env = info.Env();
  const ArrayView<int32_t> activations = ints(info, index, "activations");
  const ArrayView<int32_t> widths = ints(info, index + 1, "widths");
  const ArrayView<int32_t> pass_through = ints(info, index + 2, "passThrough");
  DenseNetwork network;
  network.replicas = integer(info, index + 3, "replicas");
  network.points = integer(info, index + 4, "points");
  network.inputs = integer(info, index + 5, "inputs");
  network.shared_input = info[index + 6].ToBoolean().Value();
  const ArrayView<int32_t> units = ints(info, index + 7, "units");
  network.leaky_relu_alpha = info[index + 8].ToNumber().FloatValue();
  if (network.replicas < 1 || network.points < 0 || network.inputs < 1 || units.length < 1) {
    fail(env, "denseNetwork: needs a replica, an input feature and a layer");
  }
  for (int64_t l = 0; l < units.length; ++l) {
    if (units.data[l] < 1) fail(env, "denseNetwork: every layer needs a unit");
    network.units.push_back(units.data[l]);
  }
  const int64_t cells = units.length * network.replicas;
  require_length(env, activations.length, cells, "activations");
  require_length(env, widths.length, cells, "widths");
  require_length(env, pass_through.length, cells, "passThrough");
  for (int64_t i = 0; i < cells; ++i) {
    const int64_t l = i / network.replicas;
    if (activations.data[i] < 0 || activations.data[i] >= kActivationCount) {
      fail(env, "denseNetwork: unknown activation code " + std::to_string(activations.data[i]));
    }
    if (widths.data[i] < 1 || widths.data[i] > units.data[l]) {
      fail(env, "denseNetwork: a replica's width outside 1 to its layer's units");
    }
    const int64_t own_input = l == 0 ? network.inputs : widths.data[i - network.replicas];
    if (pass_through.data[i] != 0 && widths.data[i] != own_input) {
      fail(env, "denseNetwork: a replica passing a layer through must be as wide as its input");
    }
  }
  network.activations = activations.data;
  network.widths = widths.data;
  network.pass_through = pass_through.data;
  return network;
}

// Checks a layer list's arrays: kernels[l] (replicas, in_l, units_l) or biases[l]
// (replicas, units_l).
std::vector<float*> layer_arrays(const Napi::CallbackInfo& info, size_t index, const char* name,
                                 const DenseNetwork& network, bool kernels) {
  const std::vector<float*> arrays =
      float_list(info, index, name, network.units.size(), -1);
  const Napi::Array list = info[index].As<Napi::Array>();
  for (size_t l = 0; l < network.units.size(); ++l) {
    const int64_t in = l == 0 ? network.inputs : network.units[l - 1];
    const int64_t needed = network.replicas * network.units[l] * (kernels ? in : 1);
    require_length(info.Env(),
                   static_cast<int64_t>(list.Get(static_cast<uint32_t>(l))
                                            .As<Napi::TypedArray>()
                                            .ElementLength()),
                   needed, name);
  }
  return arrays;
}

std::vector<const float*> read_only(const std::vector<float*>& arrays) {
  return {arrays.begin(), arrays.end()};
}

int64_t input_size(const DenseNetwork& network) {
  return (network.shared_input ? 1 : network.replicas) * network.points * network.inputs;
}

// denseNetwork(input, kernels[], biases[], activations, widths, passThrough, replicas, points,
// inputs, sharedInput, units, leakyReluAlpha, output, tape)
Napi::Value DenseNetworkForward(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 14) fail(env, "denseNetwork takes 14 arguments");
  const DenseNetwork network = dense_network_argument(info, 3);
  const ArrayView<float> input = floats(info, 0, "input");
  require_length(env, input.length, input_size(network), "input");
  const std::vector<float*> kernels = layer_arrays(info, 1, "kernels", network, true);
  const std::vector<float*> biases = layer_arrays(info, 2, "biases", network, false);
  const ArrayView<float> output = floats(info, 12, "output");
  const ArrayView<float> tape = floats(info, 13, "tape");
  require_length(env, output.length, network.replicas * network.points * network.units.back(),
                 "output");
  require_length(env, tape.length, dense_network_tape_size(network), "tape");
  dense_network_forward(network, input.data, read_only(kernels), read_only(biases), output.data,
                        tape.data);
  return env.Undefined();
}

// denseNetworkGrad(outputGradient, input, kernels[], tape, activations, widths, passThrough,
// replicas, points, inputs, sharedInput, units, leakyReluAlpha, inputGradient, kernelGradients[],
// biasGradients[])
Napi::Value DenseNetworkBackward(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 16) fail(env, "denseNetworkGrad takes 16 arguments");
  const DenseNetwork network = dense_network_argument(info, 4);
  const ArrayView<float> output_gradient = floats(info, 0, "outputGradient");
  require_length(env, output_gradient.length,
                 network.replicas * network.points * network.units.back(), "outputGradient");
  const ArrayView<float> input = floats(info, 1, "input");
  require_length(env, input.length, input_size(network), "input");
  const std::vector<float*> kernels = layer_arrays(info, 2, "kernels", network, true);
  const ArrayView<float> tape = floats(info, 3, "tape");
  require_length(env, tape.length, dense_network_tape_size(network), "tape");
  const ArrayView<float> input_gradient = floats(info, 13, "inputGradient");
  require_length(env, input_gradient.length, input_size(network), "inputGradient");
  const std::vector<float*> kernel_gradients =
      layer_arrays(info, 14, "kernelGradients", network, true);
  const std::vector<float*> bias_gradients =
      layer_arrays(info, 15, "biasGradients", network, false);
  dense_network_backward(network, output_gradient.data, input.data, read_only(kernels),
                         tape.data, input_gradient.data, kernel_gradients, bias_gradients);
  return env.Undefined();
}

// timeParallelSgemm(n, rounds): seconds of each round of one (n, n) sgemm per pool thread at
// once, as a Float64Array.
Napi::Value TimeParallelSgemm(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 2) fail(env, "timeParallelSgemm takes 2 arguments");
  const int64_t n = integer(info, 0, "n");
  const int64_t rounds = integer(info, 1, "rounds");
  if (n < 1 || rounds < 1) fail(env, "timeParallelSgemm: n and rounds must be at least 1");
  const std::vector<double> seconds = time_parallel_sgemm(n, rounds);
  Napi::Float64Array result = Napi::Float64Array::New(env, seconds.size());
  for (size_t i = 0; i < seconds.size(); ++i) result[i] = seconds[i];
  return result;
}

}  // namespace

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  blas_info();
  exports.Set("info", Napi::Function::New(env, Info, "info"));
  exports.Set("matMul", Napi::Function::New(env, MatMul, "matMul"));
  exports.Set("unary", Napi::Function::New(env, Unary, "unary"));
  exports.Set("binary", Napi::Function::New(env, Binary, "binary"));
  exports.Set("compare", Napi::Function::New(env, Compare, "compare"));
  exports.Set("select", Napi::Function::New(env, Select, "select"));
  exports.Set("reduce", Napi::Function::New(env, Reduce, "reduce"));
  exports.Set("transpose", Napi::Function::New(env, Transpose, "transpose"));
  exports.Set("concat", Napi::Function::New(env, Concat, "concat"));
  exports.Set("slice", Napi::Function::New(env, Slice, "slice"));
  exports.Set("pad", Napi::Function::New(env, Pad, "pad"));
  exports.Set("luminosityContraction",
              Napi::Function::New(env, LuminosityContraction, "luminosityContraction"));
  exports.Set("luminosityContractionGrad",
              Napi::Function::New(env, LuminosityContractionGrad, "luminosityContractionGrad"));
  exports.Set("adamFamilyUpdate", Napi::Function::New(env, AdamFamilyUpdate, "adamFamilyUpdate"));
  exports.Set("denseNetwork", Napi::Function::New(env, DenseNetworkForward, "denseNetwork"));
  exports.Set("denseNetworkGrad",
              Napi::Function::New(env, DenseNetworkBackward, "denseNetworkGrad"));
  exports.Set("stoppingUpdate", Napi::Function::New(env, StoppingUpdate, "stoppingUpdate"));
  exports.Set("keepBestRows", Napi::Function::New(env, KeepBestRows, "keepBestRows"));
  exports.Set("timeParallelSgemm",
              Napi::Function::New(env, TimeParallelSgemm, "timeParallelSgemm"));
  exports.Set("luminositySupport",
              Napi::Function::New(env, LuminositySupport, "luminositySupport"));
  return exports;
}

}  // namespace partonfit

namespace {

Napi::Object InitAddon(Napi::Env env, Napi::Object exports) {
  return partonfit::Init(env, exports);
}

}  // namespace

NODE_API_MODULE(partonfit_native, InitAddon)
