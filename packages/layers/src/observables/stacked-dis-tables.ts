import * as tf from '@tensorflow/tfjs-core';
import { EVOLUTION_BASIS_SIZE, InvalidArgumentError, type DisFkTensor } from '@partonfit/core';
import { ConstantMatrix, matMulConstant } from '../ops/index.js';

const FLAVOURS = EVOLUTION_BASIS_SIZE;

/**
 * Whether DIS tables can share one {@link StackedDisTables}: all read the same x nodes
 * `[xOffset, xOffset + nx)` of the PDF.
 */
export function sameDisWindow(a: DisFkTensor, b: DisFkTensor): boolean {
  return a.xOffset === b.xOffset && a.nx === b.nx;
}

/**
 * The predictions of many DIS tables that read the same x nodes, in ONE product: their compact
 * FK tensors side by side along data, each padded with zeros to the union of their active
 * flavours, `(x · union flavour, Σ data)`. The PDF meets it as a single table does (the `compact`
 * DIS formulation): the window of x nodes, the union flavours picked by one constant one-hot
 * product `(replicas · x, 14) @ (14, union flavour)`, then one plain 2-D product with the
 * stacked FK and its kept transpose for the backward pass.
 *
 * What it is for: a fit has tens of DIS datasets (and positivity sets) on one x-grid, and each
 * table as its own layer costs the same handful of small kernels, whose dispatch dominates a
 * step at few replicas. Stacked, the kernels are those of one table and the product is one
 * larger one. Each table's predictions are the same sums as its own layer's (the padded
 * flavours add zeros), up to float32 rounding of the summation order.
 *
 * Owns its constants: call {@link StackedDisTables.dispose} when done.
 */
export class StackedDisTables {
  /** The tables, in the order their predictions come out. */
  readonly tables: readonly DisFkTensor[];
  /** The union of the tables' flavours, ascending: indices into the PDF's 14 flavours. */
  readonly flavours: readonly number[];
  /** The summed data points of the tables. */
  readonly ndata: number;
  private readonly selection: ConstantMatrix;
  private readonly fk: ConstantMatrix;

  /**
   * @param tables - DIS tables that all read the same x nodes (see {@link sameDisWindow})
   * @throws InvalidArgumentError for no tables, or tables on different x nodes
   */
  constructor(tables: readonly DisFkTensor[]) {
    if (tables.length === 0) {
      throw new InvalidArgumentError({
        argument: 'tables',
        problem: 'expected at least one table',
      });
    }
    const first = tables[0];
    const other = tables.find((table) => !sameDisWindow(table, first));
    if (other !== undefined) {
      throw new InvalidArgumentError({
        argument: 'tables',
        problem: `table ${other.name} reads x nodes [${other.xOffset}, ${other.xOffset + other.nx}), table ${first.name} [${first.xOffset}, ${first.xOffset + first.nx}): stacked tables share their x nodes`,
      });
    }
    this.tables = [...tables];
    this.flavours = [...new Set(tables.flatMap((table) => table.channels))].sort((a, b) => a - b);
    this.ndata = tables.reduce((sum, table) => sum + table.ndata, 0);
    const union = this.flavours.length;
    const selection = new Float32Array(FLAVOURS * union);
    this.flavours.forEach((flavour, u) => {
      selection[flavour * union + u] = 1;
    });
    this.selection = ConstantMatrix.fromArray(selection, FLAVOURS, union);
    this.fk = ConstantMatrix.fromArray(this.stackedValues(), first.nx * union, this.ndata);
  }

  /**
   * @param pdf - `(replicas, x, 14)` on the full x-grid; the tables read `[xOffset, xOffset + nx)`
   * @returns `(replicas, Σ data)`: each table's predictions, in table order
   */
  apply(pdf: tf.Tensor3D): tf.Tensor2D {
    return tf.tidy(() => {
      const { nx, xOffset } = this.tables[0];
      const window =
        xOffset === 0 && nx === pdf.shape[1] ? pdf : tf.slice(pdf, [0, xOffset, 0], [-1, nx, -1]);
      const selected = this.selection.multiply(tf.reshape<tf.Rank.R2>(window, [-1, FLAVOURS]));
      const rows = tf.reshape<tf.Rank.R2>(selected, [-1, nx * this.flavours.length]);
      return matMulConstant(rows, this.fk.value, this.fk.transposed);
    });
  }

  /** Releases the stacked FK, its transpose and the selection. */
  dispose(): void {
    this.selection.dispose();
    this.fk.dispose();
  }

  /** The stacked FK, row-major `(x · union flavour, Σ data)`; repeated channels are summed. */
  private stackedValues(): Float32Array {
    const union = this.flavours.length;
    const nx = this.tables[0].nx;
    const ndata = this.ndata;
    const out = new Float32Array(nx * union * ndata);
    let column = 0;
    for (const table of this.tables) {
      const channels = table.channels.length;
      const slots = table.channels.map((flavour) => this.flavours.indexOf(flavour));
      for (let a = 0; a < nx; a++) {
        slots.forEach((slot, c) => {
          const from = (a * channels + c) * table.ndata;
          const to = (a * union + slot) * ndata + column;
          for (let n = 0; n < table.ndata; n++) out[to + n] += table.values[from + n] ?? 0;
        });
      }
      column += table.ndata;
    }
    return out;
  }
}
