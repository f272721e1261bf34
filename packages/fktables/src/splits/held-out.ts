import {
  InvalidArgumentError,
  type EigenbasisChi2,
  type EigenbasisChi2Block,
} from '@partonfit/core';
import type { DatasetSpan } from './point-split.js';

/** Where a dataset sits on the data axis. */
type DataSpan = Pick<DatasetSpan, 'name' | 'offset' | 'ndata'>;

/**
 * k-fold cross-validation of a hyperparameter scan: the folds' held-out datasets and the fold of
 * each replica row. Row r trains and validates without its fold's datasets (unless the fold
 * `overfit`s them), whose χ² is then the fold's loss.
 */
export interface DataFolds {
  /** Each fold's held-out datasets, by the runcard's names. */
  readonly datasets: readonly (readonly string[])[];
  /** Per fold: its datasets stay in training and validation (n3fit's `overfit`). */
  readonly overfit: readonly boolean[];
  /** The fold of each replica row, an index into `datasets`, `(rows)`. */
  readonly rowFold: readonly number[];
}

/**
 * Each fold's held-out points on the data axis, `(folds, data)`, 1 = held out.
 *
 * @throws InvalidArgumentError naming a fold's dataset that is not fitted, or a row's fold that
 *   does not exist
 */
export function heldOutMasks(folds: DataFolds, datasets: readonly DataSpan[]): Uint8Array {
  const ndata = datasets.reduce((end, span) => Math.max(end, span.offset + span.ndata), 0);
  const byName = new Map(datasets.map((span) => [span.name, span]));
  const masks = new Uint8Array(folds.datasets.length * ndata);
  folds.datasets.forEach((names, k) => {
    for (const name of names) {
      const span = byName.get(name);
      if (span === undefined) {
        throw new InvalidArgumentError({
          argument: `folds.datasets[${k}]`,
          problem: `${name} is not a fitted dataset`,
        });
      }
      masks.fill(1, k * ndata + span.offset, k * ndata + span.offset + span.ndata);
    }
  });
  const bad = folds.rowFold.findIndex(
    (fold) => !Number.isInteger(fold) || fold < 0 || fold >= folds.datasets.length,
  );
  if (bad >= 0) {
    throw new InvalidArgumentError({
      argument: `folds.rowFold[${bad}]`,
      problem: `expected a fold between 0 and ${folds.datasets.length - 1}`,
    });
  }
  return masks;
}

/**
 * The points each row leaves out of training and validation, `(rows, data)`: its fold's held-out
 * points, none for a fold that overfits.
 */
export function excludedPoints(folds: DataFolds, heldOut: Uint8Array): Uint8Array {
  const ndata = heldOut.length / Math.max(folds.datasets.length, 1);
  const excluded = new Uint8Array(folds.rowFold.length * ndata);
  folds.rowFold.forEach((fold, r) => {
    if (folds.overfit[fold]) return;
    excluded.set(heldOut.subarray(fold * ndata, (fold + 1) * ndata), r * ndata);
  });
  return excluded;
}

/** Training or validation masks `(rows, data)` without each row's excluded points. */
export function withoutExcluded(masks: Uint8Array, excluded: Uint8Array): Uint8Array {
  return masks.map((used, i) => (excluded[i] === 1 ? 0 : used));
}

/**
 * A diagonal-basis χ² structure without each row's excluded points: the modes of a block whose
 * points are all excluded get weight 0. A block (a stretch of correlated data) that a fold cuts
 * through cannot be split in the diagonal basis, whose modes mix its points.
 *
 * @param names - the fitted datasets, for the message
 * @returns the structure, and the modes each row counts `(rows)`
 * @throws InvalidArgumentError naming the block's datasets when a fold holds out part of a block
 */
export function eigenbasisWithoutExcluded(
  structure: EigenbasisChi2,
  excluded: Uint8Array,
  names: readonly DataSpan[],
): { structure: EigenbasisChi2; modes: Int32Array } {
  const { ndata } = structure;
  const rows = excluded.length / ndata;
  const modes = new Int32Array(rows);
  const blocks = structure.blocks.map((block): EigenbasisChi2Block => {
    const weights = new Float32Array(rows * block.modes);
    for (let r = 0; r < rows; r++) {
      const source = structure.replicas === 1 ? 0 : r;
      const points = excluded.subarray(
        r * ndata + block.offset,
        r * ndata + block.offset + block.size,
      );
      const held = points.reduce((sum, point) => sum + point, 0);
      if (held > 0 && held < block.size) {
        const inBlock = names
          .filter(
            (span) =>
              span.offset < block.offset + block.size && span.offset + span.ndata > block.offset,
          )
          .map((span) => span.name);
        throw new InvalidArgumentError({
          argument: 'kfold.partitions',
          problem: `a partition holds out part of the correlated datasets ${inBlock.join(', ')}, which the diagonal basis (diagonal_basis: true) cannot split: put them in the same partition, or set diagonal_basis: false`,
        });
      }
      if (held === block.size) continue;
      const own = block.weights.subarray(source * block.modes, (source + 1) * block.modes);
      weights.set(own, r * block.modes);
      modes[r] += own.reduce((count, weight) => count + (weight !== 0 ? 1 : 0), 0);
    }
    return { ...block, weights };
  });
  return { structure: { ...structure, replicas: rows, blocks }, modes };
}
