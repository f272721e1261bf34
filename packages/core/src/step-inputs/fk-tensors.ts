/**
 * The FK tensors exactly as a training step multiplies them. `@partonfit/fktables` produces
 * them once at set-up from the compact tables; `@partonfit/layers` consumes them. Both sides
 * share these types so that neither depends on the other.
 *
 * Every table reads its x nodes as a contiguous slice `[xOffset, xOffset + nx)` of the one
 * x-grid on which the PDF is evaluated each step (the union of all tables' grids), so a layer
 * selects its nodes with a slice, never a gather.
 *
 * @packageDocumentation
 */

/**
 * A DIS FK table for one observable: T_n = Σ_{a,c} FK[n, c, a] · xf_{flavours[c]}(x_a).
 *
 * `values` is float32, row-major with shape `(x · channel, data)`:
 * `values[(a · channels.length + c) · ndata + n] = FK[n, c, a]`, so that the prediction of all
 * replicas is one plain 2-D product `(replicas, x · channel) @ (x · channel, data)`.
 */
export interface DisFkTensor {
  /** Discriminant. */
  readonly kind: 'dis';
  /** Name of the table, for messages. */
  readonly name: string;
  /** Number of data points (columns of `values`). */
  readonly ndata: number;
  /** Number of x nodes of this table. */
  readonly nx: number;
  /** Position of this table's first x node in the PDF's x-grid. */
  readonly xOffset: number;
  /** The active evolution-basis flavour indices (0…13), in the order of the channel axis. */
  readonly channels: readonly number[];
  /** The table, shape `(x · channel, data)`, see above. */
  readonly values: Float32Array;
}

/**
 * A hadronic FK table for one observable:
 * T_n = Σ_{a,b,c} FK[n, c, a, b] · xf_{i_c}(x_a) · xf_{j_c}(x_b) with `channels[c] = [i_c, j_c]`.
 *
 * `values` is float32, row-major with shape `(x1 · x2 · channel, data)`:
 * `values[((a · nx + b) · channels.length + c) · ndata + n] = FK[n, c, a, b]`.
 */
export interface HadronicFkTensor {
  /** Discriminant. */
  readonly kind: 'hadronic';
  /** Name of the table, for messages. */
  readonly name: string;
  /** Number of data points (columns of `values`). */
  readonly ndata: number;
  /** Number of x nodes of this table (the same grid for both protons). */
  readonly nx: number;
  /** Position of this table's first x node in the PDF's x-grid. */
  readonly xOffset: number;
  /**
   * The active luminosity channels as pairs of evolution-basis indices (first, second proton).
   * `@partonfit/fktables` lists a mirrored pair `(i, j)`, `(j, i)` once, its second table added
   * to the first with x1 and x2 swapped: both protons read the same PDF on the same grid.
   */
  readonly channels: readonly (readonly [number, number])[];
  /** The table, shape `(x1 · x2 · channel, data)`, see above. */
  readonly values: Float32Array;
}

/** Either kind of FK tensor. */
export type FkTensor = DisFkTensor | HadronicFkTensor;

/** How the operands of an observable combine (upstream validphys's `OP`). */
export const OBSERVABLE_OPERATIONS = ['NULL', 'ADD', 'RATIO', 'ASY', 'SMN', 'COM', 'SMT'] as const;

/** One of {@link OBSERVABLE_OPERATIONS}. */
export type ObservableOperation = (typeof OBSERVABLE_OPERATIONS)[number];

/** How many operands each operation takes (upstream libnnpdf's `FKSet` operators). */
export const OPERAND_COUNTS: Readonly<Record<ObservableOperation, number>> = {
  NULL: 1,
  ADD: 2,
  RATIO: 2,
  ASY: 2,
  SMN: 4,
  COM: 20,
  SMT: 10,
};

/**
 * An observable as the step computes it: each operand is the concatenation (along the data axis)
 * of its tables' predictions; the operands then combine by `operation`:
 * NULL a; ADD a + b; RATIO a / b; ASY (a − b)/(a + b); SMN (a + b)/(c + d);
 * COM (a₁ + … + a₁₀)/(b₁ + … + b₁₀); SMT a₁ + … + a₁₀.
 */
export interface ObservableTensors {
  /** Dataset name, for messages. */
  readonly name: string;
  /** Number of data points of the combined observable. */
  readonly ndata: number;
  /** How the operands combine. */
  readonly operation: ObservableOperation;
  /** The operands; each is a list of tables concatenated along the data axis. */
  readonly operands: readonly (readonly FkTensor[])[];
}
