export {
  assertSquare,
  createMatrix,
  identityMatrix,
  matrixFromRows,
  maxAbsDifference,
  multiplyMatrices,
  principalSubmatrix,
  transposeMatrix,
  type Matrix,
} from './matrix.js';
export {
  cholesky,
  inverseFromCholesky,
  invertSymmetricPositiveDefinite,
  solveLowerTransposed,
  solveLowerTriangular,
  solveWithCholesky,
} from './cholesky.js';
export { symmetricEigen, type SymmetricEigensystem } from './symmetric-eigen.js';
