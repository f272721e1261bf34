import { deriveReplicaSeed, InvalidArgumentError, SeededRandom } from '@partonfit/core';
import { assertBlocksCover, type CovarianceBlockFactor } from './covariance-blocks.js';

/** What the Monte Carlo pseudodata of every replica are drawn from. */
export interface PseudodataSource {
  /** Central experimental values D, (data). */
  readonly central: Float64Array;
  /** Cholesky factors of the sampling covariance's independent blocks, covering the data. */
  readonly blocks: readonly CovarianceBlockFactor[];
  /** The runcard's `mcseed`. */
  readonly mcseed: number;
  /**
   * Points whose pseudodata must not be negative (e.g. cross sections upstream marks
   * positive), (data), 1 = must stay ≥ 0; the whole draw is repeated until they are.
   */
  readonly positive?: Uint8Array;
  /** Draws allowed before giving up on positivity (default 10,000). */
  readonly maxDraws?: number;
}

const DEFAULT_MAX_DRAWS = 10_000;

/**
 * The pseudodata of one replica: D_r = D + L·z_r with z_r ~ N(0, 1) drawn from the replica's
 * own `mcseed` stream (core's `deriveReplicaSeed(mcseed, 'mcseed', r)`), so replica r's
 * pseudodata are the same whichever other replicas are in the run. L·z is applied block by
 * block. When `positive` marks points, the whole vector is drawn again (continuing the same
 * stream) until those points are ≥ 0.
 *
 * @param source - central values, covariance factors, seed
 * @param replica - the replica, 1-based
 * @returns D_r, (data)
 * @throws InvalidArgumentError - if no draw within `maxDraws` keeps the positive points ≥ 0
 */
export function replicaPseudodata(source: PseudodataSource, replica: number): Float64Array {
  const { central, blocks, positive } = source;
  const ndata = central.length;
  assertBlocksCover(blocks, ndata);
  const random = new SeededRandom(deriveReplicaSeed(source.mcseed, 'mcseed', replica));
  const maxDraws = source.maxDraws ?? DEFAULT_MAX_DRAWS;
  for (let draw = 0; draw < maxDraws; draw++) {
    const pseudodata = Float64Array.from(central);
    const noise = random.normals(ndata);
    for (const { offset, size, cholesky } of blocks) {
      const l = cholesky.data;
      for (let i = 0; i < size; i++) {
        let shift = 0;
        for (let k = 0; k <= i; k++) shift += l[i * size + k] * noise[offset + k];
        pseudodata[offset + i] += shift;
      }
    }
    if (positive === undefined || pseudodata.every((value, i) => positive[i] === 0 || value >= 0)) {
      return pseudodata;
    }
  }
  throw new InvalidArgumentError({
    argument: 'pseudodata',
    problem: `replica ${replica}: no draw in ${maxDraws} kept the points that must be positive ≥ 0; check their central values and uncertainties`,
  });
}

/**
 * The pseudodata of several replicas, replicas on the first axis.
 *
 * @param source - central values, covariance factors, seed
 * @param replicas - the replicas, 1-based, in the order of the result's first axis
 * @param generate - false for upstream's `genrep: false`: every replica fits the central data
 * @returns (replicas, data), row-major
 */
export function pseudodataForReplicas(
  source: PseudodataSource,
  replicas: readonly number[],
  generate = true,
): Float64Array {
  const ndata = source.central.length;
  const all = new Float64Array(replicas.length * ndata);
  replicas.forEach((replica, r) => {
    all.set(generate ? replicaPseudodata(source, replica) : source.central, r * ndata);
  });
  return all;
}
