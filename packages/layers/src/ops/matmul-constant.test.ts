import * as tf from '@tensorflow/tfjs-core';
import { ShapeError } from '@partonfit/core';
import { expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { CachedTranspose } from './cached-transpose.js';
import {
  batchMatMulConstant,
  ConstantMatrix,
  matMulConstant,
  matMulConstantLowMemory,
  matMulExplicitTranspose,
} from './matmul-constant.js';
import {
  expectClose,
  matMul64,
  randomArray,
  tensorGrowth,
  toFloat32,
  values,
} from './numeric.fixture.js';

const ROWS = 7;
const INNER = 33;
const COLUMNS = 5;
const a = toFloat32(randomArray(ROWS * INNER, 1));
const b = toFloat32(randomArray(INNER * COLUMNS, 2));
/** Weights of the scalar loss L = Σ w ⊙ (a @ b), so that dL/dA = w @ bᵀ and dL/dB = aᵀ @ w. */
const w = toFloat32(randomArray(ROWS * COLUMNS, 3));

function transpose64(m: ArrayLike<number>, rows: number, columns: number): Float64Array {
  const out = new Float64Array(rows * columns);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < columns; j++) out[j * rows + i] = m[i * columns + j]!;
  return out;
}

const expectedProduct = matMul64(a, b, ROWS, INNER, COLUMNS);
const expectedGradA = matMul64(w, transpose64(b, INNER, COLUMNS), ROWS, COLUMNS, INNER);
const expectedGradB = matMul64(transpose64(a, ROWS, INNER), w, INNER, ROWS, COLUMNS);

describeOnBackends('matMulConstant', () => {
  const variants = {
    matMulConstant: (x: tf.Tensor2D, m: ConstantMatrix) => matMulConstant(x, m.value, m.transposed),
    matMulConstantLowMemory: (x: tf.Tensor2D, m: ConstantMatrix) =>
      matMulConstantLowMemory(x, m.value),
    'ConstantMatrix.multiply': (x: tf.Tensor2D, m: ConstantMatrix) => m.multiply(x),
  };

  for (const [name, multiply] of Object.entries(variants)) {
    it(`should equal the float64 product and its gradient (${name})`, () => {
      const constant = ConstantMatrix.fromArray(b, INNER, COLUMNS);
      tf.tidy(() => {
        const left = tf.tensor2d(a, [ROWS, INNER]);
        const weights = tf.tensor2d(w, [ROWS, COLUMNS]);
        const product = multiply(left, constant);
        expect(product.shape).toEqual([ROWS, COLUMNS]);
        expectClose(values(product), expectedProduct);
        const gradient = tf.grad((x: tf.Tensor) =>
          tf.sum(tf.mul(multiply(x as tf.Tensor2D, constant), weights)),
        )(left);
        expectClose(values(gradient), expectedGradA);
      });
      constant.dispose();
    });
  }

  it('should give both gradients of a product of two variables (matMulExplicitTranspose)', () => {
    tf.tidy(() => {
      const left = tf.tensor2d(a, [ROWS, INNER]);
      const right = tf.tensor2d(b, [INNER, COLUMNS]);
      const weights = tf.tensor2d(w, [ROWS, COLUMNS]);
      const product = matMulExplicitTranspose(left, right);
      expect(product.shape).toEqual([ROWS, COLUMNS]);
      expectClose(values(product), expectedProduct);
      const [gradA, gradB] = tf.grads((x: tf.Tensor, y: tf.Tensor) =>
        tf.sum(tf.mul(matMulExplicitTranspose(x as tf.Tensor2D, y as tf.Tensor2D), weights)),
      )([left, right]);
      expectClose(values(gradA), expectedGradA);
      expectClose(values(gradB), expectedGradB);
    });
  });

  it('should multiply batches by a constant with the gradient dY @ bᵀ (batchMatMulConstant)', () => {
    const batch = 2;
    const second = toFloat32(randomArray(INNER * COLUMNS, 4));
    tf.tidy(() => {
      const left = tf.tensor3d(Float32Array.from([...a, ...a.map((v) => -2 * v)]), [
        batch,
        ROWS,
        INNER,
      ]);
      const right = tf.tensor3d(Float32Array.from([...b, ...second]), [batch, INNER, COLUMNS]);
      const rightTransposed = tf.transpose<tf.Tensor3D>(right, [0, 2, 1]);
      const weights = tf.tensor3d(Float32Array.from([...w, ...w]), [batch, ROWS, COLUMNS]);
      const product = batchMatMulConstant(left, right, rightTransposed);
      expect(product.shape).toEqual([batch, ROWS, COLUMNS]);
      const minusTwoA = a.map((v) => -2 * v);
      expectClose(values(product), [
        ...expectedProduct,
        ...matMul64(minusTwoA, second, ROWS, INNER, COLUMNS),
      ]);
      const gradient = tf.grad((x: tf.Tensor) =>
        tf.sum(tf.mul(batchMatMulConstant(x as tf.Tensor3D, right, rightTransposed), weights)),
      )(left);
      expectClose(values(gradient), [
        ...expectedGradA,
        ...matMul64(w, transpose64(second, INNER, COLUMNS), ROWS, COLUMNS, INNER),
      ]);
      expect(() => batchMatMulConstant(left, right, right)).toThrow(/bTransposed/);
    });
  });

  it('should refresh a cached transpose when the variable is assigned (CachedTranspose)', () => {
    const cache = new CachedTranspose();
    const variable = tf.variable(tf.tensor2d([[1, 2, 3]]));
    const first = cache.of(variable);
    expect(cache.of(variable)).toBe(first);
    expect(Array.from(first.dataSync())).toEqual([1, 2, 3]);
    expect(first.shape).toEqual([3, 1]);
    tf.tidy(() => {
      variable.assign(tf.tensor2d([[4, 5, 6]]));
    });
    expect(Array.from(cache.of(variable).dataSync())).toEqual([4, 5, 6]);
    cache.dispose();
    variable.dispose();
  });

  it('should reject operands whose inner sizes differ', () => {
    const constant = ConstantMatrix.fromArray(b, INNER, COLUMNS);
    const left = tf.zeros<tf.Rank.R2>([ROWS, INNER + 1]);
    expect(() => constant.multiply(left)).toThrow(ShapeError);
    expect(() => matMulConstant(left, constant.value, constant.value)).toThrow(ShapeError);
    expect(() => matMulConstant(tf.zeros([ROWS, INNER]), constant.value, constant.value)).toThrow(
      /bTransposed/,
    );
    expect(() => ConstantMatrix.fromArray(b, INNER, COLUMNS + 1)).toThrow(ShapeError);
    left.dispose();
    constant.dispose();
  });

  it('should not leak tensors over 100 forward and backward passes', () => {
    const constant = ConstantMatrix.fromArray(b, INNER, COLUMNS);
    const left = tf.tensor2d(a, [ROWS, INNER]);
    const step = () => {
      tf.tidy(() => {
        tf.grad((x: tf.Tensor) => tf.sum(constant.multiply(x as tf.Tensor2D)))(left);
        tf.grads((x: tf.Tensor, y: tf.Tensor) =>
          tf.sum(matMulExplicitTranspose(x as tf.Tensor2D, y as tf.Tensor2D)),
        )([left, constant.value]);
      });
    };
    expect(tensorGrowth(step)).toBe(0);
    left.dispose();
    constant.dispose();
  });
});
