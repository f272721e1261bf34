import { EVOLUTION_BASIS_SIZE } from '@partonfit/core';
import {
  ARC_LENGTH_X_GRID,
  arcLengthsFromValues,
  EXPORT_X_GRID,
  INTEGRABILITY_X_GRID,
  integrabilityNumbersFromValues,
} from '@partonfit/fit-folder';
import type { PreprocessingRecord } from '@partonfit/fit-folder';
import { buildReplicaModel, replicaPdfAt } from './replica-model.js';
import type { ReplicaParameters } from './replica-parameters.js';

/** What a replica's exportgrid and JSON record of its PDF. */
export interface ReplicaPdfRecords {
  /** x·f at Q0 on `EXPORT_X_GRID` in the evolution basis, `(196, 14)` row-major. */
  readonly xfEvolution: Float64Array;
  /** Arc lengths of Σ, g, V, V3, V8, `(5)`. */
  readonly arcLengths: Float64Array;
  /** Integrability numbers of V, T3, V3, T8, V8, `(5)`. */
  readonly integrability: Float64Array;
  /** The preprocessing exponents per fitted flavour, in network-output order. */
  readonly preprocessing: PreprocessingRecord[];
}

/** The x points of the quality numbers: the arc-length grid, then the integrability grid. */
const QUALITY_X_GRID = Float64Array.from([...ARC_LENGTH_X_GRID, ...INTEGRABILITY_X_GRID]);

/**
 * Everything a replica's `<fit>.exportgrid` and `<fit>.json` hold about its PDF, from its
 * parameters alone: the single-replica model ({@link buildReplicaModel}) evaluated on the export
 * grid and the arc-length and integrability grids, and the preprocessing exponents. `runFit` and
 * `partonfit export` both use it, so an export reproduces the fit's files exactly on the same
 * backend.
 */
export async function replicaPdfRecords(parameters: ReplicaParameters): Promise<ReplicaPdfRecords> {
  const model = buildReplicaModel(parameters);
  try {
    const xfEvolution = await replicaPdfAt(model, EXPORT_X_GRID);
    const quality = await replicaPdfAt(model, QUALITY_X_GRID);
    const split = ARC_LENGTH_X_GRID.length * EVOLUTION_BASIS_SIZE;
    const exponent = (name: string) => parameters.weights.get(name)?.data[0] ?? Number.NaN;
    return {
      xfEvolution,
      arcLengths: arcLengthsFromValues(quality.subarray(0, split)),
      integrability: integrabilityNumbersFromValues(quality.subarray(split)),
      preprocessing: parameters.architecture.flavours.map((flavour) => ({
        flavour: flavour.fl,
        smallX: exponent(`preprocessing/alpha_${flavour.fl}`),
        largeX: exponent(`preprocessing/beta_${flavour.fl}`),
        trainable: flavour.trainable ?? true,
      })),
    };
  } finally {
    model.dispose();
  }
}
