import {
  ShapeError,
  type Chi2Structure,
  type CovarianceChi2Block,
  type EigenbasisChi2Block,
} from '@partonfit/core';

/** res_b · W_{w,b} · res_b for one block and weight row w. */
function covarianceBlockChi2(
  { offset, size, weights }: CovarianceChi2Block,
  w: number,
  residual: Float64Array,
): number {
  const base = w * size * size;
  let chi2 = 0;
  for (let i = 0; i < size; i++) {
    let product = 0;
    for (let j = 0; j < size; j++) product += weights[base + i * size + j] * residual[offset + j];
    chi2 += residual[offset + i] * product;
  }
  return chi2;
}

/** Σ_k weights[w, k] · (res_b · rotation_{·k})² for one block and weight row w. */
function eigenbasisBlockChi2(
  { offset, size, modes, rotation, weights }: EigenbasisChi2Block,
  w: number,
  residual: Float64Array,
): number {
  let chi2 = 0;
  for (let k = 0; k < modes; k++) {
    let projection = 0;
    for (let i = 0; i < size; i++) projection += residual[offset + i] * rotation[i * modes + k];
    chi2 += weights[w * modes + k] * projection * projection;
  }
  return chi2;
}

/**
 * χ² per replica from a {@link Chi2Structure}, in float64 on the host: the reference the
 * training step's tensor implementation is tested against, and what `predict` reports.
 *
 * @param structure - training, validation or experimental structure
 * @param residuals - D_r − T_r, (replicas, data); a shared structure (replicas = 1) applies to
 *   every row
 * @returns χ²_r, (replicas)
 */
export function chi2FromStructure(structure: Chi2Structure, residuals: Float64Array): Float64Array {
  const { ndata } = structure;
  if (residuals.length % ndata !== 0 || residuals.length === 0) {
    throw new ShapeError({
      quantity: 'residuals',
      expected: [null, ndata],
      actual: [residuals.length],
    });
  }
  const replicas = residuals.length / ndata;
  if (structure.replicas !== 1 && structure.replicas !== replicas) {
    throw new ShapeError({
      quantity: 'residuals',
      expected: [structure.replicas, ndata],
      actual: [replicas, ndata],
    });
  }
  const chi2 = new Float64Array(replicas);
  for (let r = 0; r < replicas; r++) {
    const w = structure.replicas === 1 ? 0 : r;
    const residual = residuals.subarray(r * ndata, (r + 1) * ndata);
    chi2[r] =
      structure.kind === 'covariance'
        ? structure.blocks.reduce((sum, block) => sum + covarianceBlockChi2(block, w, residual), 0)
        : structure.blocks.reduce((sum, block) => sum + eigenbasisBlockChi2(block, w, residual), 0);
  }
  return chi2;
}

/** Bytes a χ² structure holds (its float32 arrays). */
export function chi2StructureBytes(structure: Chi2Structure): number {
  return structure.blocks.reduce(
    (bytes, block) =>
      bytes + block.weights.byteLength + ('rotation' in block ? block.rotation.byteLength : 0),
    0,
  );
}
