// The linear algebra alone: a worker thread loads this module, and the whole package would
// cost it ~0.1 s of start-up (the runcard schema and YAML).
import { symmetricEigen, type SymmetricEigensystem } from '@partonfit/core/linalg';
import type { BlockCovariance } from '../pseudodata/covariance-blocks.js';

/**
 * The eigensystem of one covariance block's correlation matrix ρ = S⁻¹ C S⁻¹, S = diag(√C_ii):
 * `ρ = Vᵀ · diag(values) · V`, what the diagonal-basis split rotates the residuals with.
 */
export interface CorrelationEigensystem extends SymmetricEigensystem {
  /** The standard deviations √C_ii of the block's points, (size). */
  readonly scale: Float64Array;
}

/**
 * The eigensystem of a block's correlation matrix (see {@link CorrelationEigensystem}), by
 * `symmetricEigen` in float64: about 9 size³ flops, the costliest step of a diagonal-basis set-up.
 *
 * @param block - one independent block, covariance (size, size)
 * @throws LinearAlgebraError - if the correlation matrix is not finite or QL does not converge
 */
export function correlationEigensystem(block: BlockCovariance): CorrelationEigensystem {
  const { size, covariance } = block;
  const scale = new Float64Array(size);
  for (let i = 0; i < size; i++) scale[i] = Math.sqrt(covariance.data[i * size + i]);
  const correlation = { ...covariance, data: Float64Array.from(covariance.data) };
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) correlation.data[i * size + j] /= scale[i] * scale[j];
  }
  return { scale, ...symmetricEigen(correlation) };
}
