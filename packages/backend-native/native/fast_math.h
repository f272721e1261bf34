// Branch-free float32 exp, tanh and sigmoid that the compiler vectorizes (the C library's expf
// and tanhf are scalar calls). Range reduction and polynomial coefficients are the classic
// Cephes single-precision ones; the error is within 2 ulp of the correctly rounded result over
// the whole float range, NaN and infinities included.
#pragma once

#include <cstdint>
#include <cstring>

namespace partonfit {

namespace detail {

inline float bits_to_float(int32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

constexpr float kExpHigh = 88.7228390520684f;   // log(FLT_MAX)
constexpr float kExpLow = -104.0f;               // below log(smallest subnormal)
constexpr float kRoundMagic = 12582912.0f;      // 1.5 * 2^23: adding it rounds to an integer

// e^x for x already clamped to [kExpLow, kExpHigh].
inline float exp_clamped(float x) {
  const float n = (x * 1.44269504088896341f + kRoundMagic) - kRoundMagic;
  const float r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // 2^n as 2^half * 2^(n - half): both factors are normal floats for every n in [-150, 128],
  // so results near the overflow and in the subnormal range come out right.
  const int32_t whole = static_cast<int32_t>(n);
  const int32_t half = whole >> 1;
  return p * bits_to_float((half + 127) << 23) * bits_to_float((whole - half + 127) << 23);
}

}  // namespace detail

inline float fast_exp_one(float x) {
  const float clamped = x < detail::kExpLow    ? detail::kExpLow
                        : x > detail::kExpHigh ? detail::kExpHigh
                                               : x;
  float y = detail::exp_clamped(clamped);
  y = x > detail::kExpHigh ? __builtin_inff() : y;
  y = x < detail::kExpLow ? 0.0f : y;
  return x != x ? x : y;
}

inline float fast_tanh_one(float x) {
  const float ax = x < 0.0f ? -x : x;
  // Small |x|: odd polynomial; otherwise 1 - 2 / (e^{2|x|} + 1), which rounds to 1 from 9.1 on.
  const float z = x * x;
  float small = -5.70498872745e-3f;
  small = small * z + 2.06390887954e-2f;
  small = small * z - 5.37397155531e-2f;
  small = small * z + 1.33314422036e-1f;
  small = small * z - 3.33332819422e-1f;
  small = small * z * x + x;
  const float limited = ax > 10.0f ? 10.0f : ax;
  float large = 1.0f - 2.0f / (detail::exp_clamped(2.0f * limited) + 1.0f);
  large = x < 0.0f ? -large : large;
  const float y = ax < 0.625f ? small : large;
  return x != x ? x : y;
}

inline float fast_sigmoid_one(float x) { return 1.0f / (1.0f + fast_exp_one(-x)); }

// The array forms, compiled for AVX-512, AVX2 and baseline x86-64 where the compiler supports
// function multi-versioning (the best one is picked when the addon loads).
void fast_exp(const float* x, float* y, int64_t count);
void fast_tanh(const float* x, float* y, int64_t count);
void fast_sigmoid(const float* x, float* y, int64_t count);

}  // namespace partonfit
