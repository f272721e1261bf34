import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { withCustomGrad } from '../ops/index.js';
import {
  COMPACT_LUMINOSITY_BACKENDS,
  runCompactLuminosity,
  runCompactLuminosityGrad,
  type CompactLuminosityAttrs,
  type LuminosityRuns,
} from './compact-luminosity-kernels.js';

/**
 * The smallest share of a hadronic table's (channel, x1, x2) rows that must be zero for every
 * data point before {@link CachedCompaction} drops them, by backend (`auto`). On `wasm` the dense
 * luminosity product runs in SIMD kernels and the compact path's loops and copies cost more per
 * row: measured break-even (CPU time, R = 10 and 100) ~50 % zero rows for tables of one
 * point, ~30 % for 30 points, ~20 % for 100. On `cpu` the compact path's loops beat tfjs-cpu's broadcast products and reductions
 * even with nothing to drop (16–24× in CPU time on the real tt̄ table, 2.7–3.5× on
 * `nnpdf40-sparse`'s tables), so every table takes it. Other backends (tfjs-node) keep every
 * table dense: unmeasured. See `bench/README.md`, zero rows on the generic path.
 */
export const MIN_DROPPED_ROW_SHARE: Readonly<Record<'cpu' | 'wasm', number>> = {
  cpu: 0,
  wasm: 0.5,
};

/** The share of zero rows worth dropping on the active backend; above 1 (never) off cpu and wasm. */
export function minDroppedRowShare(): number {
  const backend = tf.getBackend();
  return backend === 'cpu' || backend === 'wasm'
    ? MIN_DROPPED_ROW_SHARE[backend]
    : Number.POSITIVE_INFINITY;
}

/** The rows of a hadronic FK table that are not zero for every data point. */
export interface CompactLuminosityRows {
  /** `(row)`: the kept rows' indices `(c · x + a) · x + b` into the dense table, ascending. */
  readonly rows: Int32Array;
  /** The share of the dense table's rows dropped, in [0, 1]. */
  readonly droppedShare: number;
}

/**
 * Finds the (channel, x1, x2) rows of a hadronic FK table in the luminosity layout that are
 * not zero for every data point: kinematic limits leave whole blocks of a real table empty.
 *
 * @param values - the table, `(channel · x1 · x2, data)` row-major
 * @param denseRows - its rows, channel · x1 · x2
 * @throws ShapeError when `values` is not a whole number of rows
 */
export function compactLuminosityRows(
  values: Float32Array,
  denseRows: number,
): CompactLuminosityRows {
  if (denseRows <= 0 || values.length % denseRows !== 0) {
    throw new ShapeError({
      quantity: 'compactLuminosityRows: values',
      expected: [denseRows, null],
      actual: [values.length],
      axes: '(channel · x1 · x2 · data)',
    });
  }
  const ndata = values.length / denseRows;
  const kept: number[] = [];
  for (let row = 0; row < denseRows; row++) {
    for (let n = row * ndata; n < (row + 1) * ndata; n++) {
      if (values[n] !== 0) {
        kept.push(row);
        break;
      }
    }
  }
  return { rows: Int32Array.from(kept), droppedShare: 1 - kept.length / denseRows };
}

/** The kept rows of `values` `(denseRows, data)`, `(rows, data)` row-major. */
export function compactFkValues(
  values: Float32Array,
  rows: Int32Array,
  ndata: number,
): Float32Array {
  const compact = new Float32Array(rows.length * ndata);
  rows.forEach((row, i) => {
    compact.set(values.subarray(row * ndata, (row + 1) * ndata), i * ndata);
  });
  return compact;
}

function luminosityRuns(
  rows: Int32Array,
  channels: readonly (readonly [number, number])[],
  xPoints: number,
): LuminosityRuns {
  const starts: number[] = [];
  rows.forEach((row, k) => {
    const sameBlock = k > 0 && rows[k - 1] === row - 1 && row % xPoints !== 0;
    if (!sameBlock) starts.push(k);
  });
  const start = Int32Array.from(starts);
  const length = start.map((k, i) => (i + 1 < start.length ? start[i + 1] : rows.length) - k);
  const first = new Int32Array(start.length);
  const second = new Int32Array(start.length);
  start.forEach((k, i) => {
    const row = rows[k];
    const [firstFlavour, secondFlavour] = channels[Math.floor(row / (xPoints * xPoints))];
    first[i] = firstFlavour * xPoints + (Math.floor(row / xPoints) % xPoints);
    second[i] = secondFlavour * xPoints + (row % xPoints);
  });
  return { start, length, first, second };
}

/**
 * A hadronic FK table with its all-zero rows dropped: what {@link compactLuminosityContraction}
 * multiplies. Owns its tensors: call {@link CompactLuminosity.dispose}.
 */
export class CompactLuminosity {
  /** The kept rows of the table, `(row, data)`. */
  readonly fk: tf.Tensor2D;
  /** Its transpose `(data, row)` for the backward, when kept. */
  readonly fkTransposed: tf.Tensor2D | undefined;
  /** The share of the dense table's rows dropped. */
  readonly droppedShare: number;
  /** The kept rows by channel and x1. */
  readonly runs: LuminosityRuns;
  /** The table's x nodes. */
  readonly xPoints: number;

  /**
   * @param rows - the kept rows, from {@link compactLuminosityRows}
   * @param values - the dense table, `(channel · x1 · x2, data)` row-major
   * @param channels - each channel's `[first, second]` flavour
   * @param xPoints - the table's x nodes
   * @param keepTranspose - whether to keep the compact table's transpose for the backward
   */
  constructor(
    rows: CompactLuminosityRows,
    values: Float32Array,
    channels: readonly (readonly [number, number])[],
    xPoints: number,
    keepTranspose: boolean,
  ) {
    const ndata = values.length / (channels.length * xPoints * xPoints);
    this.fk = tf.keep(
      tf.tensor2d(compactFkValues(values, rows.rows, ndata), [rows.rows.length, ndata]),
    );
    this.fkTransposed = keepTranspose ? tf.keep(tf.tidy(() => tf.transpose(this.fk))) : undefined;
    this.droppedShare = rows.droppedShare;
    this.runs = luminosityRuns(rows.rows, channels, xPoints);
    this.xPoints = xPoints;
  }

  /** The number of kept rows. */
  get rows(): number {
    return this.fk.shape[0];
  }

  /** Releases the table. */
  dispose(): void {
    this.fk.dispose();
    this.fkTransposed?.dispose();
  }
}

/**
 * The hadronic FK contraction of all replicas at once on the non-zero rows of a table only:
 * `T[r, n] = Σ_k pdf[r, x₁(k), f₁(k)] · pdf[r, x₂(k), f₂(k)] · FK[k, n]` over the kept rows k.
 *
 * The forward's kernel (`PartonfitCompactLuminosity`) reads each kept row's two PDF
 * factors and multiplies them to the compact luminosity `(replicas, row)` in one loop over runs
 * of consecutive x2 nodes; one plain 2-D product with the compact table follows. The backward
 * keeps only the PDF: it forms `dL = dY @ FKᵀ` (or `(FK @ dYᵀ)ᵀ` without a kept transpose) and
 * its kernel adds `dL ⊙ factor` of each proton into the PDF's gradient in one loop. tfjs's
 * `gather` and `scatterND` would do the same, but gather runs ~50 ns per element on wasm and
 * cpu. The kernels read and write the tensors in the backend's memory: cpu and wasm only.
 * Equal to the dense contraction up to the order of float32 sums.
 *
 * @param pdf - `(replicas, x, flavour)`, the table's x nodes
 * @param compact - the table's kept rows
 * @returns `(replicas, data)`
 * @throws ShapeError when the PDF's x nodes are not the table's
 * @throws InvalidArgumentError on a backend other than cpu and wasm
 */
export function compactLuminosityContraction(
  pdf: tf.Tensor3D,
  compact: CompactLuminosity,
): tf.Tensor2D {
  if (pdf.rank !== 3 || pdf.shape[1] !== compact.xPoints) {
    throw new ShapeError({
      quantity: 'compactLuminosityContraction: pdf',
      expected: [null, compact.xPoints, null],
      actual: pdf.shape,
      axes: '(replicas, x, flavour)',
    });
  }
  if (!COMPACT_LUMINOSITY_BACKENDS.includes(tf.getBackend())) {
    throw new InvalidArgumentError({
      argument: 'compactLuminosityContraction: backend',
      problem: `the compact kernels run on ${COMPACT_LUMINOSITY_BACKENDS.join(' and ')}, not ${tf.getBackend()}`,
    });
  }
  const attrs: CompactLuminosityAttrs = { runs: compact.runs, rows: compact.rows };
  const contraction = withCustomGrad(([values], save) => {
    save([values]);
    return {
      value: tf.matMul(runCompactLuminosity(values as tf.Tensor3D, attrs), compact.fk),
      gradFunc: (dy, [saved]) => {
        const dLuminosity =
          compact.fkTransposed !== undefined
            ? tf.matMul<tf.Tensor2D>(dy, compact.fkTransposed)
            : tf.transpose<tf.Tensor2D>(tf.matMul(compact.fk, tf.transpose(dy as tf.Tensor2D)));
        return runCompactLuminosityGrad(dLuminosity, saved, attrs);
      },
    };
  });
  return contraction(pdf) as tf.Tensor2D;
}

/**
 * The compact form of one hadronic FK table, made once from the table's values and made again
 * only when the table's data changes (a weight assigned by `loadWeights` or `setWeights` gets a
 * new `dataId`) or the share worth dropping does (another backend), or `undefined` where too
 * few rows are zero to be worth dropping. Owns the compact table: call
 * {@link CachedCompaction.dispose}.
 */
export class CachedCompaction {
  private source: object | undefined;
  private sourceShare: number | undefined;
  private compact: CompactLuminosity | undefined;

  /**
   * @param channels - each channel's `[first, second]` flavour
   * @param xPoints - the table's x nodes
   * @param minDroppedShare - the smallest share of zero rows that is dropped (above 1: never;
   *   `auto`: {@link minDroppedRowShare} of the backend active at each call)
   * @param keepTranspose - whether the compact table's transpose is kept for the backward
   */
  constructor(
    private readonly channels: readonly (readonly [number, number])[],
    private readonly xPoints: number,
    private readonly minDroppedShare: number | 'auto',
    private readonly keepTranspose: boolean,
  ) {}

  /**
   * The compact form of `fk` `(channel · x1 · x2, data)`, or `undefined` when the dense
   * product is to be kept: fewer than `minDroppedShare` of its rows are zero, or all are.
   *
   * @param values - `fk`'s values, when the caller has them: then nothing is read back
   */
  of(fk: tf.Tensor2D, values?: Float32Array): CompactLuminosity | undefined {
    const share = this.minDroppedShare === 'auto' ? minDroppedRowShare() : this.minDroppedShare;
    if (this.source !== fk.dataId || this.sourceShare !== share) {
      this.compact?.dispose();
      this.compact = undefined;
      this.source = fk.dataId;
      this.sourceShare = share;
      if (share <= 1) {
        const tableValues = values ?? (fk.dataSync() as Float32Array);
        const rows = compactLuminosityRows(tableValues, fk.shape[0]);
        if (rows.rows.length > 0 && rows.droppedShare >= share) {
          this.compact = new CompactLuminosity(
            rows,
            tableValues,
            this.channels,
            this.xPoints,
            this.keepTranspose,
          );
        }
      }
    }
    return this.compact;
  }

  /** Releases the compact table. */
  dispose(): void {
    this.compact?.dispose();
    this.compact = undefined;
    this.source = undefined;
    this.sourceShare = undefined;
  }
}
