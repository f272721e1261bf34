/**
 * The native unary kernels by tfjs kernel name, with the op code of `native/elementwise.h`
 * (`UnaryOp`). Each follows the cpu backend's formula (Sigmoid is `1 / (1 + e^-x)`, Elu
 * `x ≥ 0 ? x : e^x − 1`, Softplus with the cpu backend's thresholds, LeakyRelu and Step take
 * the kernel's `alpha`).
 */
export const UNARY_OPS = {
  Exp: 1,
  Log: 2,
  Tanh: 3,
  Sigmoid: 4,
  Sqrt: 5,
  Square: 6,
  Elu: 7,
  Neg: 8,
  Abs: 9,
  Relu: 10,
  Relu6: 11,
  Rsqrt: 12,
  Reciprocal: 13,
  Softplus: 14,
  Log1p: 15,
  Expm1: 16,
  LeakyRelu: 17,
  Step: 18,
} as const;

/**
 * The native binary kernels by tfjs kernel name, with the op code of `native/elementwise.h`
 * (`BinaryOp`). Maximum and Minimum return NaN when either operand is NaN, like `Math.max`;
 * Pow is evaluated in float64 and rounded, like the cpu backend's `Math.pow`. EluGrad takes
 * `(dy, y)`.
 */
export const BINARY_OPS = {
  Add: 0,
  Sub: 1,
  Multiply: 2,
  RealDiv: 3,
  Pow: 4,
  Maximum: 5,
  Minimum: 6,
  SquaredDifference: 7,
  EluGrad: 8,
} as const;

/**
 * The native comparisons of float32 tensors by tfjs kernel name (`CompareOp` of
 * `native/elementwise.h`), giving bool tensors; NaN compares unequal to everything.
 */
export const COMPARE_OPS = {
  Equal: 0,
  NotEqual: 1,
  Less: 2,
  LessEqual: 3,
  Greater: 4,
  GreaterEqual: 5,
} as const;

/** The native reductions by tfjs kernel name (`ReduceOp` of `native/reduce.h`). */
export const REDUCE_OPS = {
  Sum: 0,
  Mean: 1,
  Max: 2,
  Min: 3,
} as const;

/** The activations of the fused matrix product, as unary op codes (0: none). */
export const FUSED_ACTIVATIONS = {
  linear: 0,
  relu: UNARY_OPS.Relu,
  relu6: UNARY_OPS.Relu6,
  elu: UNARY_OPS.Elu,
  sigmoid: UNARY_OPS.Sigmoid,
  leakyrelu: UNARY_OPS.LeakyRelu,
} as const;
