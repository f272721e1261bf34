/**
 * The FK table as partonfit holds it in memory: compact in flavour (only the active channels are
 * stored), dense in x, float64. Every reader (legacy text, npz bundles, later PineAPPL) produces
 * this; the step tensors ({@link toFkTensor}) and the float64 reference predictions
 * ({@link predictFkTable}) are computed from it.
 *
 * @packageDocumentation
 */

/**
 * The scale ratios of the theory an FK table was computed with: its theory card's `XIF` and
 * `XIR`, what a point prescription's (k_F, k_R) names.
 */
export interface TheoryScaleRatios {
  /** μF/Q, the theory's `XIF` (k_F). */
  readonly factorisation: number;
  /** μR/Q, the theory's `XIR` (k_R). */
  readonly renormalisation: number;
  /**
   * The theory the ratios belong to (a legacy table's `*ID`, the card's `ID`), when the file
   * names one: a table reused from another theory carries that theory's card.
   */
  readonly theoryId?: number;
}

/** What every FK table has, DIS or hadronic. */
interface FkTableBase {
  /** Name of the table (e.g. `POSXDQ` for `FK_POSXDQ.dat`), for messages and lookup. */
  readonly name: string;
  /** The file it was read from. */
  readonly file: string;
  /** The scale Q0 in GeV at which the PDF is convolved with the table. */
  readonly q0: number;
  /** Number of data points. */
  readonly ndata: number;
  /**
   * The x nodes, shape `(x)`. Every node of the file stays, also one with no non-zero entry, so
   * that x indices are those of the file.
   */
  readonly xGrid: Float64Array;
  /**
   * C-factor files whose central values have already been multiplied into `values` (one factor
   * per data point, as upstream validphys does); empty when none were applied.
   */
  readonly cFactors: readonly string[];
  /**
   * The scale ratios of the table's theory, when the file says: a legacy table's TheoryInfo
   * `*XIF` and `*XIR`, a PineAPPL table's `theory` metadata (the theory card as JSON). Absent
   * for tables that carry neither, and for generated and bundled tables.
   */
  readonly theoryScales?: TheoryScaleRatios;
}

/**
 * A DIS FK table (one PDF): T_n = Σ_{c,a} FK[n, c, a] · xf_{channels[c]}(x_a).
 *
 * `values` is float64, row-major with shape `(data, channel, x)`:
 * `values[(n · channels.length + c) · nx + a] = FK[n, c, a]`.
 */
export interface DisFkTable extends FkTableBase {
  /** Discriminant: one PDF. */
  readonly hadronic: false;
  /**
   * The active evolution-basis flavour indices (0…13) in the order of the channel axis
   * (ascending for legacy tables).
   */
  readonly channels: readonly number[];
  /** The table, shape `(data, channel, x)`, see above. */
  readonly values: Float64Array;
}

/**
 * A hadronic FK table (two PDFs):
 * T_n = Σ_{c,a,b} FK[n, c, a, b] · xf_{i_c}(x_a) · xf_{j_c}(x_b) with `channels[c] = [i_c, j_c]`,
 * i the flavour of the first proton (a row of the legacy FlavourMap), j of the second.
 *
 * `values` is float64, row-major with shape `(data, channel, x1, x2)`:
 * `values[((n · channels.length + c) · nx + a) · nx + b] = FK[n, c, a, b]`.
 */
export interface HadronicFkTable extends FkTableBase {
  /** Discriminant: two PDFs. */
  readonly hadronic: true;
  /**
   * The active luminosity channels as pairs of evolution-basis indices `[first, second]`, in
   * the order of the channel axis (ascending in `14 · first + second` for legacy tables).
   */
  readonly channels: readonly (readonly [number, number])[];
  /** The table, shape `(data, channel, x1, x2)`, see above. */
  readonly values: Float64Array;
}

/** Either kind of FK table; `hadronic` tells them apart. */
export type FkTable = DisFkTable | HadronicFkTable;

/**
 * Number of values one data point holds: `channels · x` (DIS) or `channels · x · x` (hadronic).
 */
export function valuesPerDataPoint(fkTable: FkTable): number {
  const nx = fkTable.xGrid.length;
  return fkTable.channels.length * (fkTable.hadronic ? nx * nx : nx);
}
