import * as tf from '@tensorflow/tfjs-core';
import { EVOLUTION_BASIS_SIZE, type FkTensor } from '@partonfit/core';
import {
  batchMatMulConstant,
  CachedTranspose,
  ConstantMatrix,
  matMulConstant,
  matMulConstantLowMemory,
} from '../ops/index.js';
import { hasFusedLuminosityKernels } from '@partonfit/backend';
import { CachedCompaction, compactLuminosityContraction } from './compact-luminosity.js';
import { flavourLuminosityContraction, luminosityContraction } from './luminosity-contraction.js';
import type { FkLayout } from './observable-layout.js';

/**
 * How a DIS table meets the PDF:
 * - `compact`: the table's active flavours are picked from the 14 by a constant one-hot product
 *   `(replicas · x, 14) @ (14, channel)`, then one plain 2-D product with the compact FK
 *   `(x · channel, data)`;
 * - `padded`: the FK is padded with zeros to all 14 flavours, `(x · 14, data)`, and the PDF slice
 *   is multiplied as it is (no selection, 14/channels times the FLOPs of the big product).
 */
export type DisFormulation = 'compact' | 'padded';

/** The DIS formulations. */
export const DIS_FORMULATIONS: readonly DisFormulation[] = ['compact', 'padded'];

/**
 * How a hadronic table meets the PDF:
 * - `luminosity`: the FK laid out channel by channel, contracted on a backend that registers
 *   the fused kernels by {@link flavourLuminosityContraction}, which reads each channel's two
 *   flavours straight from the PDF; elsewhere per-channel factors of the first and second
 *   proton by two constant one-hot products `(replicas · x, 14) @ (14, channel)`, their outer
 *   product in x to the luminosity `(replicas, channel · x1 · x2)` and one plain 2-D product
 *   ({@link luminosityContraction}), with a backward that keeps no luminosity — or, when enough
 *   of the table's rows are zero for every data point, only the non-zero rows
 *   ({@link compactLuminosityContraction});
 * - `padded`: the outer product of the full 14-flavour PDF, `(replicas, x1 · x2 · 14 · 14)`, and
 *   one plain 2-D product with the FK padded to all 196 flavour pairs;
 * - `two-step`: the second proton is contracted first, per channel, by a batched product
 *   `(channel, replicas, x2) @ (channel, x2, x1 · data)`, then the first by an elementwise
 *   product and a sum over (channel, x1).
 */
export type HadronicFormulation = 'luminosity' | 'padded' | 'two-step';

/** The hadronic formulations. */
export const HADRONIC_FORMULATIONS: readonly HadronicFormulation[] = [
  'luminosity',
  'padded',
  'two-step',
];

/**
 * Whether the transpose of an FK tensor, which the backward pass multiplies, is kept in memory
 * (`keep`: fastest, twice the memory) or rebuilt from activations each backward pass
 * (`recompute`: `dY @ FKᵀ = (FK @ dYᵀ)ᵀ`, measured 5–10 % slower on the big hadronic product,
 * half the memory). `auto` keeps it for tables of at most {@link KEEP_TRANSPOSE_MAX_VALUES}
 * values.
 */
export type FkTransposeStorage = 'auto' | 'keep' | 'recompute';

/** The FK transpose storages. */
export const FK_TRANSPOSE_STORAGES: readonly FkTransposeStorage[] = ['auto', 'keep', 'recompute'];

/** Size (number of values) up to which `auto` keeps an FK tensor's transpose: 16 MB of float32. */
export const KEEP_TRANSPOSE_MAX_VALUES = 1 << 22;

/** The formulation a table uses, by kind. */
export interface Formulations {
  readonly dis: DisFormulation;
  readonly hadronic: HadronicFormulation;
}

const FLAVOURS = EVOLUTION_BASIS_SIZE;
const FLAVOUR_PAIRS = FLAVOURS * FLAVOURS;

/**
 * Shape of the FK tensor a table stores in a formulation: `(x · channel, data)` (DIS compact),
 * `(x · 14, data)` (DIS padded), `(channel · x1 · x2, data)` (luminosity),
 * `(x1 · x2 · 14 · 14, data)` (hadronic padded), `(channel, x2, x1 · data)` (two-step).
 */
export function fkTensorShape(table: FkLayout, formulations: Formulations): number[] {
  const channels = table.channels.length;
  if (table.kind === 'dis') {
    const width = formulations.dis === 'padded' ? FLAVOURS : channels;
    return [table.nx * width, table.ndata];
  }
  switch (formulations.hadronic) {
    case 'luminosity':
      return [channels * table.nx * table.nx, table.ndata];
    case 'padded':
      return [table.nx * table.nx * FLAVOUR_PAIRS, table.ndata];
    case 'two-step':
      return [channels, table.nx, table.nx * table.ndata];
  }
}

/**
 * The table's values laid out as {@link fkTensorShape} says, from the compact layout of
 * `@partonfit/core` (`values[((a · nx + b) · channels + c) · ndata + n] = FK[n, c, a, b]`).
 * Padding sums channels that name the same flavour (pair) twice.
 */
export function fkTensorValues(table: FkTensor, formulations: Formulations): Float32Array {
  const { nx, ndata, values } = table;
  if (table.kind === 'dis') {
    if (formulations.dis === 'compact') return values;
    const padded = new Float32Array(nx * FLAVOURS * ndata);
    const channels = table.channels;
    for (let a = 0; a < nx; a++) {
      channels.forEach((flavour, c) => {
        const from = (a * channels.length + c) * ndata;
        const to = (a * FLAVOURS + flavour) * ndata;
        for (let n = 0; n < ndata; n++) padded[to + n] = padded[to + n] + values[from + n];
      });
    }
    return padded;
  }
  const channels = table.channels;
  const out = new Float32Array(fkTensorShape(table, formulations).reduce((a, b) => a * b, 1));
  if (formulations.hadronic === 'luminosity') {
    // A reordering only: each (x1, x2, channel) row of data points moves as one block.
    for (let a = 0; a < nx; a++) {
      for (let b = 0; b < nx; b++) {
        for (let c = 0; c < channels.length; c++) {
          const from = ((a * nx + b) * channels.length + c) * ndata;
          out.set(values.subarray(from, from + ndata), ((c * nx + a) * nx + b) * ndata);
        }
      }
    }
    return out;
  }
  for (let a = 0; a < nx; a++) {
    for (let b = 0; b < nx; b++) {
      channels.forEach(([first, second], c) => {
        const from = ((a * nx + b) * channels.length + c) * ndata;
        const to =
          formulations.hadronic === 'padded'
            ? ((a * nx + b) * FLAVOUR_PAIRS + first * FLAVOURS + second) * ndata
            : (c * nx + b) * nx * ndata + a * ndata;
        for (let n = 0; n < ndata; n++) out[to + n] = out[to + n] + values[from + n];
      });
    }
  }
  return out;
}

/** One-hot `(14, channel)` selecting `flavours[c]` into column c. */
function flavourSelection(flavours: readonly number[]): ConstantMatrix {
  const values = new Float32Array(FLAVOURS * flavours.length);
  flavours.forEach((flavour, c) => {
    values[flavour * flavours.length + c] = 1;
  });
  return ConstantMatrix.fromArray(values, FLAVOURS, flavours.length);
}

/** The constants each formulation multiplies besides the FK tensor. */
type Plan =
  | { readonly formulation: 'compact'; readonly selection: ConstantMatrix }
  | { readonly formulation: 'padded' }
  | {
      readonly formulation: 'luminosity' | 'two-step';
      readonly first: ConstantMatrix;
      readonly second: ConstantMatrix;
    };

function makePlan(table: FkLayout, formulations: Formulations): Plan {
  if (table.kind === 'dis') {
    return formulations.dis === 'compact'
      ? { formulation: 'compact', selection: flavourSelection(table.channels) }
      : { formulation: 'padded' };
  }
  if (formulations.hadronic === 'padded') return { formulation: 'padded' };
  return {
    formulation: formulations.hadronic,
    first: flavourSelection(table.channels.map(([first]) => first)),
    second: flavourSelection(table.channels.map(([, second]) => second)),
  };
}

/**
 * The prediction of one FK table for all replicas, in one formulation: PDF `(replicas, x, 14)` on
 * the full x-grid → `(replicas, data)`. Owns its small constants (one-hot selections, the cached
 * FK transpose); the FK tensor itself is passed to {@link FkConvolution.apply} (a layer's weight).
 */
export class FkConvolution {
  /** Whether the FK transpose is kept in memory. */
  readonly keepsTranspose: boolean;
  private readonly plan: Plan;
  private readonly transposeCache: CachedTranspose;
  private readonly compaction: CachedCompaction | undefined;

  /**
   * @param table - the table's layout (sizes, x range, channels)
   * @param formulations - the formulation for each table kind
   * @param storage - whether the FK transpose is kept for the backward pass
   * @param minDroppedRowShare - a hadronic table in the `luminosity` formulation on a backend
   *   without the fused kernels drops its all-zero (channel, x1, x2) rows when at least this
   *   share of them is zero ({@link compactLuminosityContraction}); above 1: never; `auto`:
   *   the active backend's break-even (`MIN_DROPPED_ROW_SHARE`)
   */
  constructor(
    readonly table: FkLayout,
    formulations: Formulations,
    storage: FkTransposeStorage = 'auto',
    minDroppedRowShare: number | 'auto' = 'auto',
  ) {
    this.plan = makePlan(table, formulations);
    const twoStep = this.plan.formulation === 'two-step';
    const size = fkTensorShape(table, formulations).reduce((a, b) => a * b, 1);
    this.keepsTranspose =
      twoStep || storage === 'keep' || (storage === 'auto' && size <= KEEP_TRANSPOSE_MAX_VALUES);
    this.transposeCache = new CachedTranspose(twoStep ? [0, 2, 1] : [1, 0]);
    this.compaction =
      table.kind === 'hadronic' && this.plan.formulation === 'luminosity'
        ? new CachedCompaction(table.channels, table.nx, minDroppedRowShare, this.keepsTranspose)
        : undefined;
  }

  /**
   * Drops a hadronic table's zero rows now, from values the caller has, where the active
   * backend's share says so (else at the first {@link FkConvolution.apply}, reading them back).
   *
   * @param fk - the FK tensor, shaped as {@link fkTensorShape} says
   * @param values - its values, laid out as {@link fkTensorValues} gives them
   */
  prepare(fk: tf.Tensor, values: Float32Array): void {
    this.compaction?.of(fk as tf.Tensor2D, values);
  }

  /** The formulation in use for this table's kind. */
  get formulation(): DisFormulation | HadronicFormulation {
    return this.plan.formulation;
  }

  /**
   * @param pdf - `(replicas, x, 14)` on the full x-grid; the table reads `[xOffset, xOffset + nx)`
   * @param fk - the FK tensor, shaped as {@link fkTensorShape} says
   * @returns `(replicas, data)`
   */
  apply(pdf: tf.Tensor3D, fk: tf.Tensor): tf.Tensor2D {
    const { nx, xOffset } = this.table;
    const slice =
      xOffset === 0 && nx === pdf.shape[1] ? pdf : tf.slice(pdf, [0, xOffset, 0], [-1, nx, -1]);
    // (replicas · x, flavour), made only where a formulation multiplies it (the fused kernels
    // read the PDF as it is)
    const rows = () => tf.reshape<tf.Rank.R2>(slice, [-1, FLAVOURS]);
    const channels = this.table.channels.length;
    const plan = this.plan;
    switch (plan.formulation) {
      case 'compact':
        return this.contract(tf.reshape(plan.selection.multiply(rows()), [-1, nx * channels]), fk);
      case 'padded':
        return this.contract(this.paddedInput(slice), fk);
      case 'luminosity': {
        if (hasFusedLuminosityKernels() && this.table.kind === 'hadronic') {
          return flavourLuminosityContraction(slice, this.table.channels, fk as tf.Tensor2D);
        }
        const fkMatrix = fk as tf.Tensor2D;
        const compact = this.compaction?.of(fkMatrix);
        if (compact !== undefined) return compactLuminosityContraction(slice, compact);
        const byX = (selected: tf.Tensor2D) => tf.reshape<tf.Rank.R3>(selected, [-1, nx, channels]);
        const flat = rows();
        return luminosityContraction(
          byX(plan.first.multiply(flat)),
          byX(plan.second.multiply(flat)),
          fkMatrix,
          this.keepsTranspose ? () => this.transposeCache.of(fkMatrix) : undefined,
        );
      }
      case 'two-step': {
        const flat = rows();
        return this.twoStep(plan.first.multiply(flat), plan.second.multiply(flat), fk);
      }
    }
  }

  private paddedInput(slice: tf.Tensor3D): tf.Tensor2D {
    const nx = this.table.nx;
    if (this.table.kind === 'dis') return tf.reshape(slice, [-1, nx * FLAVOURS]);
    const first = tf.reshape(slice, [-1, nx, 1, FLAVOURS, 1]);
    const second = tf.reshape(slice, [-1, 1, nx, 1, FLAVOURS]);
    return tf.reshape(tf.mul(first, second), [-1, nx * nx * FLAVOUR_PAIRS]);
  }

  private contract(input: tf.Tensor2D, fk: tf.Tensor): tf.Tensor2D {
    const matrix = fk as tf.Tensor2D;
    return this.keepsTranspose
      ? matMulConstant(input, matrix, this.transposeCache.of(matrix))
      : matMulConstantLowMemory(input, matrix);
  }

  /**
   * H[c, r, (a, n)] = Σ_b f2[r, b, c] · FK[c, b, (a, n)] by a batched product over channels, then
   * T[r, n] = Σ_{c, a} f1[r, a, c] · H[c, r, a, n].
   */
  private twoStep(first: tf.Tensor2D, second: tf.Tensor2D, fk: tf.Tensor): tf.Tensor2D {
    const { nx, ndata } = this.table;
    const channels = this.table.channels.length;
    const byChannel = (selected: tf.Tensor2D) =>
      tf.transpose<tf.Tensor3D>(tf.reshape(selected, [-1, nx, channels]), [2, 0, 1]);
    const partial = batchMatMulConstant(
      byChannel(second),
      fk as tf.Tensor3D,
      this.transposeCache.of(fk as tf.Tensor3D),
    );
    const terms = tf.mul(
      tf.reshape(partial, [channels, -1, nx, ndata]),
      tf.expandDims(byChannel(first), 3),
    );
    return tf.sum<tf.Tensor2D>(terms, [0, 2]);
  }

  /** Releases the selections, the cached transpose and the compact table. */
  dispose(): void {
    if (this.plan.formulation === 'compact') this.plan.selection.dispose();
    if (this.plan.formulation === 'luminosity' || this.plan.formulation === 'two-step') {
      this.plan.first.dispose();
      this.plan.second.dispose();
    }
    this.transposeCache.dispose();
    this.compaction?.dispose();
  }
}
