import type { ObservableOperation } from '@partonfit/core';

/**
 * Experimental data as partonfit holds it in memory, whichever format it came from (NNPDF's
 * current YAML commondata or the legacy `DATA_<SET>.dat` files).
 *
 * @packageDocumentation
 */

/**
 * How an uncertainty enters the covariance: `ADD`itive (an absolute error, fixed) or
 * `MULT`iplicative (a fraction of the central value; for the t0 covariance it is rescaled to the
 * t0 predictions).
 */
export type UncertaintyTreatment = 'ADD' | 'MULT';

/**
 * The correlation type of an uncertainty:
 * - `UNCORR`, `THEORYUNCORR`: uncorrelated between points (diagonal of the covariance);
 * - `CORR`, `THEORYCORR`: fully correlated between the points of the dataset;
 * - `SKIP`: ignored;
 * - any other name (e.g. `HC_sys1`, `SLACNORM`, `ATLASLUMI13`): a "special" systematic, fully
 *   correlated between all points of all datasets that carry the same name.
 */
export type UncertaintyType =
  'UNCORR' | 'CORR' | 'THEORYUNCORR' | 'THEORYCORR' | 'SKIP' | (string & Record<never, never>);

/** The correlation types that stay inside one dataset; every other type except SKIP is special. */
export const INTRA_DATASET_TYPES: readonly string[] = [
  'UNCORR',
  'CORR',
  'THEORYUNCORR',
  'THEORYCORR',
];

/** Whether an uncertainty type correlates points across datasets (a "special" systematic). */
export function isSpecialType(type: string): boolean {
  return type !== 'SKIP' && !INTRA_DATASET_TYPES.includes(type);
}

/** One uncertainty (a column of the systematics table) of a dataset. */
export interface Uncertainty {
  /** Its name in the file (`stat`, `sys_corr_1`, …); legacy files have `stat`, `sys_1`, …. */
  readonly name: string;
  /** ADD or MULT. */
  readonly treatment: UncertaintyTreatment;
  /** UNCORR, CORR, THEORYUNCORR, THEORYCORR, SKIP or a special name. */
  readonly type: UncertaintyType;
  /**
   * The absolute uncertainty of each point, in the units of the data, shape `(data)`. For MULT
   * this is relative[i] · central[i] (the YAML files store it so; legacy files store percents,
   * converted on reading).
   */
  readonly values: Float64Array;
  /**
   * MULT only: the uncertainty as a fraction of the central value, shape `(data)`, so that the
   * t0 covariance uses σ_i = relative[i] · t0_i. Absent for ADD.
   */
  readonly relative?: Float64Array;
}

/**
 * The kinematics of the data points: three variables per point (upstream validphys always works
 * with three; sets that define fewer repeat the last one as `extra_0`, …).
 */
export interface Kinematics {
  /**
   * The variable names in column order, e.g. `['x', 'Q2', 'y']` for DIS. For YAML commondata the
   * order of `kinematic_coverage`; for legacy files the names upstream gives the process type.
   */
  readonly variables: readonly [string, string, string];
  /** The mid values, row-major with shape `(data, 3)`. */
  readonly values: Float64Array;
}

/**
 * The theory block of a dataset: which FK tables make its predictions and how they combine (see
 * `ObservableTensors` in `@partonfit/core`).
 */
export interface TheoryMetadata {
  /** The FK tables: the outer list holds operands, each inner list is concatenated along data. */
  readonly fkTables: readonly (readonly string[])[];
  /** How the operands combine (NULL when there is one operand). */
  readonly operation: ObservableOperation;
  /** Factor multiplying the predictions (e.g. 1000 for fb data and pb tables). */
  readonly conversionFactor: number;
  /** Per FK table, a number of empty data points to insert before it (upstream `shifts`). */
  readonly shifts?: Readonly<Record<string, number>>;
  /** Per FK table, a factor multiplying it (upstream `normalization`). */
  readonly normalization?: Readonly<Record<string, number>>;
}

/** What a dataset is used for: fitted data, or a positivity or integrability constraint. */
export type DatasetKind = 'data' | 'positivity' | 'integrability';

/**
 * One dataset: central values, kinematics and uncertainties of its points (and, for YAML
 * commondata, the theory that predicts them).
 */
export interface CommonData {
  /**
   * The dataset name: `<setName>_<observableName>` for YAML commondata (e.g.
   * `HERA_CC_318GEV_EM-SIGMARED`), the set name for legacy files (e.g. `HERACOMBCCEM`).
   */
  readonly name: string;
  /** The set (folder) name, e.g. `HERA_CC_318GEV`; for legacy files the same as `name`. */
  readonly setName: string;
  /** The observable name, e.g. `EM-SIGMARED`; undefined for legacy files. */
  readonly observableName: string | undefined;
  /** The variant applied (e.g. `legacy`), if any. */
  readonly variant: string | undefined;
  /** The legacy name the dataset was asked for by (e.g. `HERACOMBCCEM`), if it was. */
  readonly legacyName: string | undefined;
  /** The process type, upper case, e.g. `DIS_NC`, `DY_Z_Y`, `POS_XPDF`, `DIS_NCE`. */
  readonly processType: string;
  /** Data, positivity or integrability. */
  readonly kind: DatasetKind;
  /** The experiment the set belongs to (`nnpdf_metadata.experiment`, a variant may change it). */
  readonly experiment: string | undefined;
  /**
   * The process the set belongs to for theory covariances (`nnpdf_metadata.nnpdf31_process`,
   * e.g. `DIS NC`); undefined for legacy files, which do not carry it.
   */
  readonly nnpdf31Process: string | undefined;
  /** Number of data points. */
  readonly ndata: number;
  /** The central values, shape `(data)`; zeros for positivity and integrability sets. */
  readonly central: Float64Array;
  /** The kinematics of each point. */
  readonly kinematics: Kinematics;
  /** The uncertainties, in file order (the `stat` column included, when there is one). */
  readonly uncertainties: readonly Uncertainty[];
  /** The FK tables and how they combine; undefined for legacy files. */
  readonly theory: TheoryMetadata | undefined;
  /**
   * Whether pseudodata of this set must be positive (upstream redraws negative replicas when
   * asked): false for asymmetries (process type containing `ASY`) and polarised (`…_POL`) data.
   */
  readonly positivityRequired: boolean;
  /**
   * The index of each point in the file the set was read from, shape `(data)`: 0, 1, … after
   * reading, the kept indices after {@link applyPointMask}.
   */
  readonly pointIndices: Uint32Array;
  /** The files that were read. */
  readonly files: readonly string[];
}

/** Whether the points of a process type must stay positive in pseudodata (see above). */
export function requiresPositivePseudodata(processType: string): boolean {
  return !processType.includes('ASY') && !processType.endsWith('_POL');
}
