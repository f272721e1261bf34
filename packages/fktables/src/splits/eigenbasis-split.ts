import {
  deriveNamedSeed,
  InvalidArgumentError,
  SeededRandom,
  type EigenbasisChi2,
  type EigenbasisChi2Block,
} from '@partonfit/core';
import {
  assertBlocksCover,
  blockedDataSize,
  type BlockCovariance,
  type DataBlock,
} from '../pseudodata/covariance-blocks.js';
import { correlationEigensystem, type CorrelationEigensystem } from './correlation-eigensystem.js';
import { shuffledIndices, splitSeed, type SplitSeeding } from './point-split.js';

/** The eigensystem of one block's correlation matrix, as the χ² needs it. */
interface BlockEigenmodes {
  readonly block: DataBlock;
  /** Rotation to the kept eigenmodes, (size, modes): column k is v_k / S. */
  readonly rotation: Float32Array;
  /** Eigenvalues of the kept modes, (modes). */
  readonly eigenvalues: Float64Array;
}

/** Options of {@link eigenbasisSplit}. */
export interface EigenbasisSplitOptions extends SplitSeeding {
  /** Fraction of the eigenmodes that go to training (runcard `diagonal_frac`). */
  readonly diagonalFrac: number;
  /** Eigenmodes with eigenvalue ≤ this are dropped (default 0: only non-positive ones). */
  readonly threshold?: number;
  /**
   * The blocks' correlation eigensystems, one per block in order, when already at hand (e.g.
   * from {@link startCorrelationEigensystems}, which shares them with a worker thread); by
   * default they are computed here with {@link correlationEigensystem}.
   */
  readonly eigensystems?: readonly CorrelationEigensystem[];
}

/** The training and validation χ² structures of a diagonal-basis split. */
export interface EigenbasisSplit {
  readonly training: EigenbasisChi2;
  readonly validation: EigenbasisChi2;
  /** Number of training eigenmodes of each replica, (replicas). */
  readonly trainingModes: Int32Array;
  /** Number of validation eigenmodes of each replica, (replicas). */
  readonly validationModes: Int32Array;
}

function blockEigenmodes(
  block: DataBlock,
  { scale, values, vectors }: CorrelationEigensystem,
  threshold: number,
): BlockEigenmodes {
  const { size } = block;
  const kept: number[] = [];
  values.forEach((value, k) => {
    if (value > threshold) kept.push(k);
  });
  const rotation = new Float32Array(size * kept.length);
  kept.forEach((k, column) => {
    for (let i = 0; i < size; i++) {
      rotation[i * kept.length + column] = vectors.data[k * size + i] / scale[i];
    }
  });
  return { block, rotation, eigenvalues: Float64Array.from(kept, (k) => values[k]) };
}

/**
 * NNPDF4.1's default split in the diagonal basis: per independent block, ρ = S⁻¹ C S⁻¹ with
 * S = diag(√C_ii) is diagonalised, ρ = V Λ Vᵀ; residuals rotate as ε = res · (S⁻¹ V) and
 * χ² = Σ_k ε_k² / λ_k. Each replica sends `floor(M · diagonalFrac)` of all M kept eigenmodes,
 * drawn at random from its own stream (`deriveNamedSeed(splitSeed(r), 'diagonal basis')`), to
 * training and the others to validation; a mode's weight is 1/λ_k where it counts and 0
 * elsewhere. The rotation is shared by all replicas.
 *
 * Memory: Σ_b size_b · modes_b float32 values for the rotation, plus 2 · replicas · M for the
 * two weight arrays.
 *
 * @param blocks - the fitting covariance's contiguous independent blocks, covering the data axis
 */
export function eigenbasisSplit(
  blocks: readonly BlockCovariance[],
  options: EigenbasisSplitOptions,
): EigenbasisSplit {
  const { diagonalFrac, replicas } = options;
  if (!(diagonalFrac >= 0 && diagonalFrac <= 1)) {
    throw new InvalidArgumentError({
      argument: 'diagonal_frac',
      problem: `expected a fraction in [0, 1], got ${diagonalFrac}`,
    });
  }
  const ndata = blockedDataSize(blocks);
  assertBlocksCover(blocks, ndata);
  const { eigensystems = blocks.map(correlationEigensystem) } = options;
  const mismatch = blocks.findIndex((block, b) => eigensystems.at(b)?.values.length !== block.size);
  if (mismatch >= 0 || eigensystems.length !== blocks.length) {
    throw new InvalidArgumentError({
      argument: 'eigensystems',
      problem: `${eigensystems.length} eigensystems do not match the ${blocks.length} covariance blocks${mismatch >= 0 ? ` (block ${mismatch} first)` : ''}`,
    });
  }
  const eigenmodes = blocks.map((block, b) =>
    blockEigenmodes(block, eigensystems[b], options.threshold ?? 0),
  );
  const totalModes = eigenmodes.reduce((sum, modes) => sum + modes.eigenvalues.length, 0);
  const trainingCount = Math.floor(totalModes * diagonalFrac);
  const isTraining = new Uint8Array(replicas.length * totalModes);
  replicas.forEach((replica, r) => {
    const random = new SeededRandom(deriveNamedSeed(splitSeed(options, replica), 'diagonal basis'));
    const order = shuffledIndices(totalModes, random);
    for (let k = 0; k < trainingCount; k++) isTraining[r * totalModes + order[k]] = 1;
  });
  const structure = (training: 0 | 1): EigenbasisChi2 => {
    let first = 0;
    const chi2Blocks: EigenbasisChi2Block[] = eigenmodes.map(({ block, rotation, eigenvalues }) => {
      const modes = eigenvalues.length;
      const weights = new Float32Array(replicas.length * modes);
      for (let r = 0; r < replicas.length; r++) {
        for (let k = 0; k < modes; k++) {
          if (isTraining[r * totalModes + first + k] === training) {
            weights[r * modes + k] = 1 / eigenvalues[k];
          }
        }
      }
      first += modes;
      return { offset: block.offset, size: block.size, modes, rotation, weights };
    });
    return {
      kind: 'eigenbasis',
      ndata,
      replicas: replicas.length,
      blocks: chi2Blocks,
    };
  };
  return {
    training: structure(1),
    validation: structure(0),
    trainingModes: Int32Array.from(replicas, () => trainingCount),
    validationModes: Int32Array.from(replicas, () => totalModes - trainingCount),
  };
}
