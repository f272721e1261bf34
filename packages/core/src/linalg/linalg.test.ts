import { describe, expect, it } from 'vitest';
import { LinearAlgebraError } from '../errors/linear-algebra-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { ShapeError } from '../errors/shape-error.js';
import {
  cholesky,
  invertSymmetricPositiveDefinite,
  solveLowerTransposed,
  solveLowerTriangular,
  solveWithCholesky,
} from './cholesky.js';
import { randomCovariance } from './covariance.fixture.js';
import {
  createMatrix,
  identityMatrix,
  matrixFromRows,
  maxAbsDifference,
  multiplyMatrices,
  principalSubmatrix,
  transposeMatrix,
  type Matrix,
} from './matrix.js';
import { symmetricEigen } from './symmetric-eigen.js';

/** max |element| of a matrix. */
function largest(matrix: Matrix): number {
  return matrix.data.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
}

describe('matrix helpers', () => {
  it('should multiply and transpose as written by hand', () => {
    const left = matrixFromRows([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const right = matrixFromRows([
      [7, 8],
      [9, 10],
      [11, 12],
    ]);
    expect(Array.from(multiplyMatrices(left, right).data)).toEqual([58, 64, 139, 154]);
    expect(Array.from(transposeMatrix(left).data)).toEqual([1, 4, 2, 5, 3, 6]);
  });

  it('should reject mismatched shapes', () => {
    expect(() => multiplyMatrices(identityMatrix(2), identityMatrix(3))).toThrow(ShapeError);
    expect(() => createMatrix(2, 2, new Float64Array(3))).toThrow(
      'matrix data: expected shape [4], got [3]',
    );
    expect(() => matrixFromRows([[1, 2], [3]])).toThrow(
      'matrix row 1: expected shape [2], got [1]',
    );
  });
});

describe('principalSubmatrix', () => {
  it('should pick rows and columns in the order given', () => {
    const matrix = matrixFromRows([
      [1, 2, 3],
      [4, 5, 6],
      [7, 8, 9],
    ]);
    expect(Array.from(principalSubmatrix(matrix, [2, 0]).data)).toEqual([9, 7, 3, 1]);
    expect(principalSubmatrix(matrix, []).rows).toBe(0);
    expect(() => principalSubmatrix(matrix, [3])).toThrow(InvalidArgumentError);
  });
});

describe('cholesky', () => {
  it('should factor a hand-computed 3×3 matrix exactly', () => {
    // A = L·Lᵀ with L = [[2,0,0],[6,1,0],[-8,5,3]]
    const a = matrixFromRows([
      [4, 12, -16],
      [12, 37, -43],
      [-16, -43, 98],
    ]);
    expect(Array.from(cholesky(a).data)).toEqual([2, 0, 0, 6, 1, 0, -8, 5, 3]);
  });

  it('should reproduce a 300×300 covariance spanning six decades to 1e-13 relative', () => {
    const covariance = randomCovariance(300, 11, 6);
    const lower = cholesky(covariance);
    const rebuilt = multiplyMatrices(lower, transposeMatrix(lower));
    let relativeError = 0;
    let upperTriangle = 0;
    for (let i = 0; i < 300; i++) {
      for (let j = 0; j < 300; j++) {
        const scale = Math.sqrt(covariance.data[i * 300 + i] * covariance.data[j * 300 + j]);
        const error = Math.abs(rebuilt.data[i * 300 + j] - covariance.data[i * 300 + j]) / scale;
        relativeError = Math.max(relativeError, error);
        if (j > i) upperTriangle = Math.max(upperTriangle, Math.abs(lower.data[i * 300 + j]));
      }
    }
    expect(relativeError).toBeLessThan(1e-13);
    expect(upperTriangle).toBe(0);
  });

  it('should name the row where a matrix stops being positive definite', () => {
    const singular = matrixFromRows([
      [1, 2, 0],
      [2, 4, 0],
      [0, 0, 1],
    ]);
    const error = (() => {
      try {
        cholesky(singular);
      } catch (caught) {
        return caught as LinearAlgebraError;
      }
      throw new Error('expected a failure');
    })();
    expect(LinearAlgebraError.isInstance(error)).toBe(true);
    expect(error.row).toBe(1);
    expect(error.message).toBe(
      'cholesky: matrix is not positive definite: pivot 0.000e+0 at row 1 of 3',
    );
  });

  it('should reject non-symmetric and non-finite matrices', () => {
    expect(() =>
      cholesky(
        matrixFromRows([
          [2, 1],
          [0, 2],
        ]),
      ),
    ).toThrow('cholesky: matrix is not symmetric: elements (1, 0) and (0, 1) differ by 1.000e+0');
    expect(() =>
      cholesky(
        matrixFromRows([
          [2, NaN],
          [NaN, 2],
        ]),
      ),
    ).toThrow('cholesky: element (0, 1) is NaN');
    expect(() => cholesky(createMatrix(2, 3))).toThrow(
      'cholesky input: expected shape [2, 2], got [2, 3]',
    );
  });
});

describe('triangular solves', () => {
  const a = randomCovariance(120, 5, 2);
  const lower = cholesky(a);
  const rightHandSide = createMatrix(
    120,
    3,
    Float64Array.from({ length: 360 }, (_, i) => Math.cos(i)),
  );

  it('should solve L·X = B and Lᵀ·X = B', () => {
    const forward = solveLowerTriangular(lower, rightHandSide);
    expect(maxAbsDifference(multiplyMatrices(lower, forward), rightHandSide)).toBeLessThan(1e-12);
    const backward = solveLowerTransposed(lower, rightHandSide);
    expect(
      maxAbsDifference(multiplyMatrices(transposeMatrix(lower), backward), rightHandSide),
    ).toBeLessThan(1e-12);
  });

  it('should solve A·X = B from the Cholesky factor', () => {
    const solution = solveWithCholesky(lower, rightHandSide);
    expect(maxAbsDifference(multiplyMatrices(a, solution), rightHandSide)).toBeLessThan(1e-11);
  });

  it('should reject a right-hand side with the wrong number of rows', () => {
    expect(() => solveLowerTriangular(lower, createMatrix(119, 1))).toThrow(
      'solveLowerTriangular right-hand side: expected shape [120, *], got [119, 1]',
    );
  });
});

describe('invertSymmetricPositiveDefinite', () => {
  it('should invert a hand-computed 2×2 matrix', () => {
    const inverse = invertSymmetricPositiveDefinite(
      matrixFromRows([
        [4, 2],
        [2, 3],
      ]),
    );
    [0.375, -0.25, -0.25, 0.5].forEach((value, i) => {
      expect(inverse.data[i]).toBeCloseTo(value, 15);
    });
  });

  it('should give A·A⁻¹ = I and an exactly symmetric inverse for a 250×250 covariance', () => {
    const covariance = randomCovariance(250, 3, 1);
    const inverse = invertSymmetricPositiveDefinite(covariance);
    expect(
      maxAbsDifference(multiplyMatrices(covariance, inverse), identityMatrix(250)),
    ).toBeLessThan(1e-11);
    expect(maxAbsDifference(inverse, transposeMatrix(inverse))).toBe(0);
  });
});

describe('symmetricEigen', () => {
  it('should find the eigensystem of a hand-computed 2×2 matrix', () => {
    // [[2, 1], [1, 2]] has eigenvalues 1 and 3, with eigenvectors (1, −1)/√2 and (1, 1)/√2.
    const { values, vectors } = symmetricEigen(
      matrixFromRows([
        [2, 1],
        [1, 2],
      ]),
    );
    expect(values[0]).toBeCloseTo(1, 15);
    expect(values[1]).toBeCloseTo(3, 15);
    expect(Math.abs(vectors.data[0] + vectors.data[1])).toBeLessThan(1e-15);
    expect(Math.abs(vectors.data[2] - vectors.data[3])).toBeLessThan(1e-15);
    expect(Math.abs(vectors.data[2])).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('should give A·v = λ·v, orthonormal vectors and ascending values for a 200×200 matrix', () => {
    const n = 200;
    const a = randomCovariance(n, 17, 0);
    const { values, vectors } = symmetricEigen(a);
    const scale = largest(a);
    const product = multiplyMatrices(a, transposeMatrix(vectors)); // column i = A·vᵢ
    let residual = 0;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < n; k++) {
        residual = Math.max(
          residual,
          Math.abs(product.data[k * n + i] - values[i] * vectors.data[i * n + k]),
        );
      }
    }
    expect(residual / scale).toBeLessThan(1e-13);
    expect(
      maxAbsDifference(multiplyMatrices(vectors, transposeMatrix(vectors)), identityMatrix(n)),
    ).toBeLessThan(1e-13);
    for (let i = 1; i < n; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]);
  });

  it('should give A·v = λ·v for sizes 1 to 9 (rows and rotations taken four at a time, with remainders)', () => {
    for (let n = 1; n <= 9; n++) {
      const a = randomCovariance(n, 40 + n, 0);
      const { values, vectors } = symmetricEigen(a);
      const product = multiplyMatrices(a, transposeMatrix(vectors));
      let residual = 0;
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < n; k++) {
          residual = Math.max(
            residual,
            Math.abs(product.data[k * n + i] - values[i] * vectors.data[i * n + k]),
          );
        }
      }
      expect(residual / largest(a)).toBeLessThan(1e-14);
      expect(
        maxAbsDifference(multiplyMatrices(vectors, transposeMatrix(vectors)), identityMatrix(n)),
      ).toBeLessThan(1e-14);
    }
  });

  it('should preserve the trace and handle diagonal, degenerate and 1×1 matrices', () => {
    const diagonal = matrixFromRows([
      [3, 0, 0],
      [0, -1, 0],
      [0, 0, 3],
    ]);
    expect(Array.from(symmetricEigen(diagonal).values)).toEqual([-1, 3, 3]);
    expect(Array.from(symmetricEigen(matrixFromRows([[7]])).values)).toEqual([7]);
    const a = randomCovariance(60, 23, 3);
    let trace = 0;
    for (let i = 0; i < 60; i++) trace += a.data[i * 60 + i];
    const sum = symmetricEigen(a).values.reduce((total, value) => total + value, 0);
    expect(Math.abs(sum - trace) / trace).toBeLessThan(1e-13);
  });

  it('should reject a non-symmetric matrix', () => {
    expect(() =>
      symmetricEigen(
        matrixFromRows([
          [1, 2],
          [3, 4],
        ]),
      ),
    ).toThrow(/symmetricEigen: matrix is not symmetric/);
  });
});
