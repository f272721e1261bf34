import * as tf from '@tensorflow/tfjs-core';
import { ShapeError } from '@partonfit/core';
import { withCustomGrad } from './custom-grad.js';

/**
 * `a @ b` for a constant right operand `b`, whose gradient with respect to `a` is the plain 2-D
 * product `dY @ bᵀ` with the transpose `bᵀ` precomputed once by the caller.
 *
 * Why: the wasm backend multiplies fast (XNNPACK) only plain 2-D products without transpose
 * flags; autodiff's backward of `tf.matMul` uses a transpose flag and falls to a scalar loop
 * (measured 5–8× slower on FK-sized products). No gradient flows to `b`: it is a constant
 * (FK table, rotation, one-hot flavour selection).
 *
 * @param a - the variable left operand, `(rows, inner)`
 * @param b - the constant right operand, `(inner, columns)`
 * @param bTransposed - `bᵀ`, `(columns, inner)`, e.g. from {@link ConstantMatrix}
 * @returns `(rows, columns)`
 */
export function matMulConstant(
  a: tf.Tensor2D,
  b: tf.Tensor2D,
  bTransposed: tf.Tensor2D,
): tf.Tensor2D {
  checkInner('matMulConstant', a, b);
  if (bTransposed.shape[0] !== b.shape[1] || bTransposed.shape[1] !== b.shape[0]) {
    throw new ShapeError({
      quantity: 'matMulConstant: bTransposed',
      expected: [b.shape[1], b.shape[0]],
      actual: bTransposed.shape,
      axes: '(columns, inner)',
    });
  }
  const product = withCustomGrad(([input]) => ({
    value: tf.matMul(input, b),
    gradFunc: (dy) => tf.matMul(dy, bTransposed),
  }));
  return product(a) as tf.Tensor2D;
}

/**
 * `a @ b` for a constant `b` when only `b` is kept in memory: the gradient
 * `dY @ bᵀ` is computed as `(b @ dYᵀ)ᵀ`, two transposes of small activations around one plain
 * 2-D product. Costs one activation-sized transpose per backward pass instead of a second copy
 * of `b`: use it for large FK tables where memory matters.
 *
 * @param a - the variable left operand, `(rows, inner)`
 * @param b - the constant right operand, `(inner, columns)`
 * @returns `(rows, columns)`
 */
export function matMulConstantLowMemory(a: tf.Tensor2D, b: tf.Tensor2D): tf.Tensor2D {
  checkInner('matMulConstantLowMemory', a, b);
  const product = withCustomGrad(([input]) => ({
    value: tf.matMul(input, b),
    gradFunc: (dy) => tf.transpose(tf.matMul(b, tf.transpose(dy as tf.Tensor2D))),
  }));
  return product(a) as tf.Tensor2D;
}

/**
 * `a @ b` for two variable operands, with the backward written as plain 2-D products of
 * explicit transposes (`dA = dY @ bᵀ`, `dB = aᵀ @ dY`), the form wasm multiplies fast.
 *
 * @param a - `(rows, inner)`
 * @param b - `(inner, columns)`
 * @returns `(rows, columns)`
 */
export function matMulExplicitTranspose(a: tf.Tensor2D, b: tf.Tensor2D): tf.Tensor2D {
  checkInner('matMulExplicitTranspose', a, b);
  const product = withCustomGrad(([left, right], save) => {
    save([left, right]);
    return {
      value: tf.matMul(left, right),
      gradFunc: (dy, saved) => {
        const [savedLeft, savedRight] = saved as [tf.Tensor2D, tf.Tensor2D];
        return [tf.matMul(dy, tf.transpose(savedRight)), tf.matMul(tf.transpose(savedLeft), dy)];
      },
    };
  });
  return product(a, b) as tf.Tensor2D;
}

/**
 * The batched form of {@link matMulConstant}: `a[k] @ b[k]` for every batch entry k with a
 * constant `b`, whose gradient is `dY[k] @ bᵀ[k]` with `bᵀ` precomputed. On wasm any batched
 * product runs in the scalar loop (XNNPACK takes only batch 1): prefer a 2-D formulation there.
 *
 * @param a - `(batch, rows, inner)`
 * @param b - `(batch, inner, columns)`
 * @param bTransposed - `(batch, columns, inner)`
 * @returns `(batch, rows, columns)`
 */
export function batchMatMulConstant(
  a: tf.Tensor3D,
  b: tf.Tensor3D,
  bTransposed: tf.Tensor3D,
): tf.Tensor3D {
  const [batch, inner, columns] = b.shape;
  if (a.rank !== 3 || a.shape[0] !== batch || a.shape[2] !== inner) {
    throw new ShapeError({
      quantity: 'batchMatMulConstant: a',
      expected: [batch, null, inner],
      actual: a.shape,
      axes: '(batch, rows, inner)',
    });
  }
  if (bTransposed.shape.join() !== [batch, columns, inner].join()) {
    throw new ShapeError({
      quantity: 'batchMatMulConstant: bTransposed',
      expected: [batch, columns, inner],
      actual: bTransposed.shape,
      axes: '(batch, columns, inner)',
    });
  }
  const product = withCustomGrad(([input]) => ({
    value: tf.matMul(input, b),
    gradFunc: (dy) => tf.matMul(dy, bTransposed),
  }));
  return product(a) as tf.Tensor3D;
}

/**
 * A constant matrix `(inner, columns)` kept on the device together with its transpose, for
 * {@link matMulConstant}. Owns both tensors: call {@link ConstantMatrix.dispose} when done.
 */
export class ConstantMatrix {
  /** The matrix, `(inner, columns)`. */
  readonly value: tf.Tensor2D;
  /** Its transpose, `(columns, inner)`. */
  readonly transposed: tf.Tensor2D;

  /** Takes ownership of `value` and computes its transpose once. */
  constructor(value: tf.Tensor2D) {
    this.value = tf.keep(value);
    this.transposed = tf.keep(tf.tidy(() => tf.transpose(value)));
  }

  /**
   * A constant from a row-major float32 array.
   *
   * @param values - row-major `(rows, columns)`
   */
  static fromArray(values: Float32Array, rows: number, columns: number): ConstantMatrix {
    if (values.length !== rows * columns) {
      throw new ShapeError({
        quantity: 'ConstantMatrix values',
        expected: [rows * columns],
        actual: [values.length],
      });
    }
    return new ConstantMatrix(tf.tensor2d(values, [rows, columns], 'float32'));
  }

  /** `a @ value` with the fast backward of {@link matMulConstant}; `a` is `(rows, inner)`. */
  multiply(a: tf.Tensor2D): tf.Tensor2D {
    return matMulConstant(a, this.value, this.transposed);
  }

  /** Releases both tensors. */
  dispose(): void {
    this.value.dispose();
    this.transposed.dispose();
  }
}

function checkInner(operation: string, a: tf.Tensor2D, b: tf.Tensor2D): void {
  if (a.rank !== 2 || b.rank !== 2 || a.shape[1] !== b.shape[0]) {
    throw new ShapeError({
      quantity: `${operation}: a @ b`,
      expected: [null, b.shape[0]],
      actual: a.shape,
      axes: `(rows, inner) for b of shape [${b.shape.join(', ')}]`,
    });
  }
}
