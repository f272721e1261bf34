import { deriveNamedSeed, InvalidArgumentError } from '@partonfit/core';
import type { Bundle } from '../bundle/bundle.js';
import type { DisFkTable } from '../fktable/fk-table.js';
import { predictFkTable } from '../fktable/predict.js';
import {
  closureCovariance,
  fluctuateData,
  type ClosureUncertainty,
} from './closure-uncertainties.js';
import {
  F2_ANTINEUTRINO_PROTON,
  F2_CHARM_ANTINEUTRINO_PROTON,
  F2_CHARM_NEUTRINO_PROTON,
  F2_CHARM_PROTON,
  F2_DEUTERON,
  F2_NEUTRINO_PROTON,
  F2_PROTON,
  combinationValues,
  pdfValue,
  XF3_ANTINEUTRINO_PROTON,
  XF3_NEUTRINO_PROTON,
  type FlavourCombination,
} from './lo-dis.js';
import { GENERATED_FILE, loFkTable } from './lo-fk-table.js';
import { toyPdfFlavourXf, toyPdfXf } from './toy-pdf.js';
import { interpolationXGrid } from './x-interpolation.js';

/**
 * The embedded closure fit's inputs, generated in memory: LO DIS and PDF-value pseudodata of
 * the Les Houches toy PDF at Q0 = √2 GeV, with FK tables on one x-grid, and positivity tables.
 *
 * @packageDocumentation
 */

/**
 * The settings of the x-grid shared by every closure table: 50 nodes from 10⁻⁵ to 0.9, equally
 * spaced in y = ln x − 5 ln(1 − x) ({@link interpolationXGrid}).
 */
export const CLOSURE_X_GRID_OPTIONS = { xMin: 1e-5, xMax: 0.9, nodes: 50 } as const;

/**
 * The x range of the closure data, [10⁻⁴, 0.8]: every dataset but the dimuon ones
 * ({@link DIMUON_X_RANGE}) spreads its points over it (60 % logarithmically below x = 0.1, the
 * rest linearly above), so this is where the fit should recover the toy PDF.
 */
export const CLOSURE_DATA_X_RANGE = [1e-4, 0.8] as const;

/**
 * The x range of the dimuon data, [0.01, 0.4], about NuTeV's: nothing else separates s from d at
 * large x (F2 and xF3 see only their sums there), so dimuon points at larger x would each be the
 * only constraint on that direction, and a replica whose split puts one in validation could not
 * describe it.
 */
export const DIMUON_X_RANGE = [0.01, 0.4] as const;

/** The x range of the positivity points, [10⁻⁵, 0.9]: the whole x-grid. */
export const CLOSURE_POSITIVITY_X_RANGE = [1e-5, 0.9] as const;

/** Number of points of each positivity table. */
export const CLOSURE_POSITIVITY_POINTS = 20;

/**
 * The process of a closure dataset at Q0: validphys's `nnpdf31_process` of the data it stands
 * for (`DIS NC`, `DIS CC`), or `PDF` for PDF values, which validphys has no process for.
 */
export type ClosureProcess = 'DIS NC' | 'DIS CC' | 'PDF';

/** One closure dataset's definition. */
export interface ClosureDatasetSpec extends ClosureUncertainty {
  /** Dataset name. */
  readonly name: string;
  /** What it measures, for people. */
  readonly description: string;
  /** Its process, which labels its points in a theory covariance. */
  readonly process: ClosureProcess;
  /** The observable, in the flavour basis. */
  readonly combination: FlavourCombination;
  /** Number of points, spread over {@link ClosureDatasetSpec.xRange}. */
  readonly points: number;
  /** The x range of the points, [xMin, xMax] with xMin < 0.1 < xMax; default {@link CLOSURE_DATA_X_RANGE}. */
  readonly xRange?: readonly [number, number];
  /**
   * The combination whose exact toy-PDF value S_n the uncorrelated uncertainty is a fraction of;
   * default `combination`. Needed where the toy PDF predicts zero (charm) or changes sign
   * (xF3 of ν̄ p, negative at small x where the sea wins over the valence).
   */
  readonly errorReference?: FlavourCombination;
}

/**
 * The closure datasets, 174 points: what LO DIS measures of the quarks (F2 of proton and
 * deuteron; ν and ν̄ CC F2 and xF3; ν and ν̄ dimuon, which see s and s̄; charm-tagged F2, which
 * sees c⁺) and the gluon as PDF values, which LO DIS cannot see. Together they fix every quark
 * and antiquark of u, d, s, c and the gluon at each x, so all eight EVOL fit flavours
 * (Σ, g, V, V3, V8, T3, T8, T15) are constrained. Uncorrelated uncertainties are 2–5 % of the
 * observable, except where the toy PDF's value is zero or changes sign: the charm-tagged F2
 * (zero, the toy PDF has no charm) takes 1 % of F2ᵖ, and xF3 (ν̄ p xF3 is negative at small x)
 * takes 3 % of the F2 of the same beam, and the dimuon data (x·s vanishes fast at large x, where
 * a relative error would ask for cancellations to 10⁻⁷ between fitted flavours) take 1 % of it.
 * Normalisations are 1.5–3 %.
 */
export const CLOSURE_DATASET_SPECS: readonly ClosureDatasetSpec[] = [
  {
    name: 'CLOSURE_F2P',
    description: 'F2 of the proton, photon exchange, LO',
    process: 'DIS NC',
    combination: F2_PROTON,
    points: 30,
    uncorrelated: 0.02,
    normalisation: 0.015,
  },
  {
    name: 'CLOSURE_F2D',
    description: 'F2 of the deuteron per nucleon, photon exchange, LO',
    process: 'DIS NC',
    combination: F2_DEUTERON,
    points: 24,
    uncorrelated: 0.02,
    normalisation: 0.015,
  },
  {
    name: 'CLOSURE_NU_F2',
    description: 'F2 of ν p charged-current DIS, LO',
    process: 'DIS CC',
    combination: F2_NEUTRINO_PROTON,
    points: 16,
    uncorrelated: 0.03,
    normalisation: 0.02,
  },
  {
    name: 'CLOSURE_NU_XF3',
    description: 'xF3 of ν p charged-current DIS, LO; uncorrelated uncertainty 3 % of F2',
    process: 'DIS CC',
    combination: XF3_NEUTRINO_PROTON,
    points: 16,
    uncorrelated: 0.03,
    normalisation: 0.02,
    errorReference: F2_NEUTRINO_PROTON,
  },
  {
    name: 'CLOSURE_NUB_F2',
    description: 'F2 of ν̄ p charged-current DIS, LO',
    process: 'DIS CC',
    combination: F2_ANTINEUTRINO_PROTON,
    points: 16,
    uncorrelated: 0.03,
    normalisation: 0.02,
  },
  {
    name: 'CLOSURE_NUB_XF3',
    description: 'xF3 of ν̄ p charged-current DIS, LO; uncorrelated uncertainty 3 % of F2',
    process: 'DIS CC',
    combination: XF3_ANTINEUTRINO_PROTON,
    points: 16,
    uncorrelated: 0.03,
    normalisation: 0.02,
    errorReference: F2_ANTINEUTRINO_PROTON,
  },
  {
    name: 'CLOSURE_NU_DIMUON',
    description:
      'charm production in ν p charged-current DIS (2x s), LO; uncorrelated uncertainty 1 % of F2',
    process: 'DIS CC',
    combination: F2_CHARM_NEUTRINO_PROTON,
    points: 12,
    uncorrelated: 0.01,
    normalisation: 0.03,
    errorReference: F2_NEUTRINO_PROTON,
    xRange: DIMUON_X_RANGE,
  },
  {
    name: 'CLOSURE_NUB_DIMUON',
    description:
      'charm production in ν̄ p charged-current DIS (2x s̄), LO; uncorrelated uncertainty 1 % of F2',
    process: 'DIS CC',
    combination: F2_CHARM_ANTINEUTRINO_PROTON,
    points: 12,
    uncorrelated: 0.01,
    normalisation: 0.03,
    errorReference: F2_ANTINEUTRINO_PROTON,
    xRange: DIMUON_X_RANGE,
  },
  {
    name: 'CLOSURE_F2C',
    description:
      'charm-tagged F2 of the proton (4/9 x c⁺), LO; uncorrelated uncertainty 1 % of F2ᵖ',
    process: 'DIS NC',
    combination: F2_CHARM_PROTON,
    points: 12,
    uncorrelated: 0.01,
    normalisation: 0,
    errorReference: F2_PROTON,
  },
  {
    name: 'CLOSURE_XG',
    description: 'the gluon x·g as PDF values',
    process: 'PDF',
    combination: pdfValue('GLUON'),
    points: 20,
    uncorrelated: 0.03,
    normalisation: 0.02,
  },
];

/** The positivity tables: x·ū, x·d̄, x·s̄ and x·g at {@link CLOSURE_POSITIVITY_POINTS} points. */
const POSITIVITY: readonly { name: string; combination: FlavourCombination }[] = [
  { name: 'CLOSURE_POS_XUB', combination: pdfValue('UBAR') },
  { name: 'CLOSURE_POS_XDB', combination: pdfValue('DBAR') },
  { name: 'CLOSURE_POS_XSB', combination: pdfValue('SBAR') },
  { name: 'CLOSURE_POS_XG', combination: pdfValue('GLUON') },
];

/** Where points switch from logarithmic to linear spacing. */
const SPACING_SWITCH = 0.1;

/** The fraction of points below {@link SPACING_SWITCH}. */
const LOGARITHMIC_FRACTION = 0.6;

/**
 * `count` x points over [xMin, xMax]: 60 % spaced logarithmically in [xMin, 0.1), the rest
 * linearly in [0.1, xMax], both ends included.
 *
 * @returns shape `(data)`, increasing
 */
export function closureXPoints(count: number, xMin: number, xMax: number): Float64Array {
  const logarithmic = Math.round(LOGARITHMIC_FRACTION * count);
  const linear = count - logarithmic;
  if (!Number.isInteger(count) || logarithmic < 1 || linear < 2) {
    throw new InvalidArgumentError({
      argument: 'count',
      problem: `expected an integer of at least 4, got ${count}`,
    });
  }
  if (!(xMin > 0 && xMin < SPACING_SWITCH && xMax > SPACING_SWITCH && xMax < 1)) {
    throw new InvalidArgumentError({
      argument: 'xMin, xMax',
      problem: `expected 0 < xMin < ${SPACING_SWITCH} < xMax < 1, got ${xMin}, ${xMax}`,
    });
  }
  return Float64Array.from({ length: count }, (_, i) =>
    i < logarithmic
      ? xMin * (SPACING_SWITCH / xMin) ** (i / logarithmic)
      : SPACING_SWITCH + ((xMax - SPACING_SWITCH) * (i - logarithmic)) / (linear - 1),
  );
}

/** The closure x-grid, {@link CLOSURE_X_GRID_OPTIONS}, shape `(x)`. */
export function closureXGrid(): Float64Array {
  return interpolationXGrid(CLOSURE_X_GRID_OPTIONS);
}

/** A closure dataset: a {@link Bundle} (FK table, data, covariance) with its kinematics. */
export interface ClosureDataset extends Bundle {
  /** What it measures, for people. */
  readonly description: string;
  /** Its process ({@link ClosureProcess}). */
  readonly process: ClosureProcess;
  /** The x of each point, shape `(data)`; every point is at Q² = Q0² = 2 GeV². */
  readonly x: Float64Array;
  /**
   * The toy PDF's predictions through the FK table, shape `(data)`: the level-0 data, the
   * "truth" the level-1 data scatter around.
   */
  readonly toyPredictions: Float64Array;
}

/** Options of {@link closureDatasets}. */
export interface ClosureDatasetsOptions {
  /**
   * 0: the data are the toy PDF's predictions exactly (a fit can reach χ² = 0); 1: the
   * predictions plus one fluctuation drawn from the covariance (the toy PDF has χ²/n ≈ 1).
   * Default 0.
   */
  readonly level?: 0 | 1;
  /**
   * Seed of the level-1 fluctuation, an unsigned 32-bit integer; each dataset draws from
   * `deriveNamedSeed(seed, name)`, so its data do not depend on the other datasets. Default 0.
   */
  readonly seed?: number;
}

/**
 * The level and seed of closure data, defaults filled in (level 0, seed 0).
 *
 * @throws InvalidArgumentError - for a level other than 0 or 1, or a seed that is not an
 *   unsigned 32-bit integer
 */
export function closureLevelAndSeed(options: ClosureDatasetsOptions): {
  level: 0 | 1;
  seed: number;
} {
  // a number, not 0 | 1: callers from JavaScript or a runcard may pass anything
  const level: number = options.level ?? 0;
  const seed = options.seed ?? 0;
  if (level !== 0 && level !== 1) {
    throw new InvalidArgumentError({ argument: 'level', problem: `expected 0 or 1, got ${level}` });
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new InvalidArgumentError({
      argument: 'seed',
      problem: `expected an integer between 0 and 4294967295, got ${seed}`,
    });
  }
  return { level: level === 1 ? 1 : 0, seed };
}

/**
 * The closure datasets ({@link CLOSURE_DATASET_SPECS}), generated in memory, each usable
 * wherever a {@link Bundle} is: its FK table (on {@link closureXGrid}, one grid object shared by
 * all tables of the call, Q0 = √2 GeV), central data at the requested level, and covariance
 * ({@link closureCovariance} with the toy PDF's exact values; the same at both levels, a
 * t0-like covariance built from the truth, so the toy PDF's χ² at level 1 follows the χ²
 * distribution with n degrees of freedom).
 *
 * @throws InvalidArgumentError - for a level other than 0 or 1, or a seed that is not an
 *   unsigned 32-bit integer
 */
export function closureDatasets(options: ClosureDatasetsOptions = {}): ClosureDataset[] {
  const { level, seed } = closureLevelAndSeed(options);
  const xGrid = closureXGrid();
  const toyAtGrid = toyPdfXf(xGrid);
  return CLOSURE_DATASET_SPECS.map((spec) => {
    const [xMin, xMax] = spec.xRange ?? CLOSURE_DATA_X_RANGE;
    const x = closureXPoints(spec.points, xMin, xMax);
    const fkTable = loFkTable({ name: spec.name, combination: spec.combination, x, xGrid });
    const toyPredictions = predictFkTable(fkTable, toyAtGrid);
    const toyAtPoints = toyPdfFlavourXf(x);
    const covariance = closureCovariance(
      combinationValues(spec.combination, toyAtPoints),
      combinationValues(spec.errorReference ?? spec.combination, toyAtPoints),
      spec,
    );
    const data =
      level === 0
        ? toyPredictions.slice()
        : fluctuateData(toyPredictions, covariance, deriveNamedSeed(seed, spec.name));
    return {
      name: spec.name,
      file: GENERATED_FILE,
      description: spec.description,
      process: spec.process,
      fkTable,
      data,
      covariance,
      x,
      toyPredictions,
    };
  });
}

/**
 * The closure positivity tables, PDF values x·ū, x·d̄, x·s̄ and x·g at
 * {@link CLOSURE_POSITIVITY_POINTS} points over {@link CLOSURE_POSITIVITY_X_RANGE} (named
 * `CLOSURE_POS_XUB`, `…_XDB`, `…_XSB`, `…_XG`), on {@link closureXGrid} (one grid object shared
 * by the tables of the call, equal in value to the datasets' grid). The toy PDF is positive at
 * every point.
 */
export function closurePositivity(): DisFkTable[] {
  const xGrid = closureXGrid();
  const [xMin, xMax] = CLOSURE_POSITIVITY_X_RANGE;
  const x = closureXPoints(CLOSURE_POSITIVITY_POINTS, xMin, xMax);
  return POSITIVITY.map(({ name, combination }) => loFkTable({ name, combination, x, xGrid }));
}
