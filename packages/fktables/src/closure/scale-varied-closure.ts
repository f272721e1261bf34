import { deriveNamedSeed, EVOLUTION_BASIS_SIZE, InvalidArgumentError } from '@partonfit/core';
import {
  buildEvolutionOperator,
  embeddedTheoryCard,
  TOY_LH_LO_THEORY,
  type EvolutionOperator,
  type TheoryCard,
} from '@partonfit/evolution';
import type { Bundle } from '../bundle/bundle.js';
import type { DisFkTable } from '../fktable/fk-table.js';
import { predictFkTable } from '../fktable/predict.js';
import {
  closureLevelAndSeed,
  closureXGrid,
  closureXPoints,
  type ClosureDatasetsOptions,
} from './closure-datasets.js';
import {
  closureCovariance,
  fluctuateData,
  type ClosureUncertainty,
} from './closure-uncertainties.js';
import {
  F2_DEUTERON,
  F2_NEUTRINO_PROTON,
  F2_PROTON,
  XF3_NEUTRINO_PROTON,
  type FlavourCombination,
} from './lo-dis.js';
import { evolutionCoefficients, GENERATED_FILE } from './lo-fk-table.js';
import { TOY_PDF_Q0, toyPdfXf } from './toy-pdf.js';
import { interpolationWeights } from './x-interpolation.js';

/**
 * Embedded closure DIS data above the fitting scale, with FK tables at a varied factorisation
 * scale, for theory uncertainties from scale variations (missing higher orders): LO DIS at
 * μF = kF·Q of the Les Houches toy PDF evolved from Q0 = √2 GeV by `@partonfit/evolution`'s
 * DGLAP operator with the closure theory (`toyLH-LO`). The shift of a prediction T under a
 * variation, Δ = T(kF, kR) − T(1, 1), is what validphys's point prescriptions combine into the
 * theory covariance. At LO the DIS coefficient functions are of order αs⁰, so the
 * renormalisation scale does not enter: T(kF, kR) = T(kF, 1) for every kR, and only kF has
 * tables.
 *
 * @packageDocumentation
 */

/** validphys's `nnpdf31_process` of a DIS dataset: neutral or charged current. */
export type DisProcess = 'DIS NC' | 'DIS CC';

/** The x range of the scale-varied closure data, [10⁻³, 0.7]. */
export const SCALE_VARIED_CLOSURE_X_RANGE = [1e-3, 0.7] as const;

/**
 * The Q² range of the scale-varied closure data in GeV², [10, 1000]: Q ≥ √10 GeV > 2·Q0, so
 * μF = Q/2 stays above the toy PDF's Q0 = √2 GeV, below which the evolution cannot go.
 */
export const SCALE_VARIED_CLOSURE_Q2_RANGE = [10, 1000] as const;

/** The centre-of-mass energy the points are reachable at, HERA's √s = 318 GeV. */
export const SCALE_VARIED_CLOSURE_SQRT_S = 318;

/** The largest inelasticity y = Q²/(x·s) of a point, 0.9, as HERA's data reach. */
export const SCALE_VARIED_CLOSURE_MAX_Y = 0.9;

/**
 * The smallest W² = Q²(1 − x)/x of a point in GeV², 15: every point passes NNPDF's DIS cuts
 * (Q² > 3.49 GeV², W² > 12.5 GeV²).
 */
export const SCALE_VARIED_CLOSURE_MIN_W2 = 15;

/** Number of Q² values a point's Q² steps through, bottom to top of its allowed range. */
const Q2_STEPS = 4;

/** One scale-varied closure dataset's definition. */
export interface ScaleVariedClosureSpec extends ClosureUncertainty {
  /** Dataset name. */
  readonly name: string;
  /** What it measures, for people. */
  readonly description: string;
  /** validphys's `nnpdf31_process`, which point prescriptions group datasets by. */
  readonly process: DisProcess;
  /** The observable at μF, in the flavour basis. */
  readonly combination: FlavourCombination;
  /** Number of points ({@link scaleVariedClosureKinematics}). */
  readonly points: number;
  /**
   * The combination whose toy-PDF value (at μF = Q) the uncorrelated uncertainty is a fraction
   * of; default `combination`.
   */
  readonly errorReference?: FlavourCombination;
}

/**
 * The scale-varied closure datasets, 76 points: F2 of proton and deuteron (neutral current)
 * and F2 and xF3 of ν p, i.e. W⁺ exchange as in HERA's e⁺p charged current, with the
 * combinations and uncertainties of their Q0 partners in {@link CLOSURE_DATASET_SPECS}
 * (2 % / 1.5 % NC, 3 % / 2 % CC, xF3's 3 % of F2). The combinations are the four-flavour parton
 * model's (u, d, s, c): the b quark the evolution generates above mb = 4.5 GeV is not counted.
 */
export const SCALE_VARIED_CLOSURE_SPECS: readonly ScaleVariedClosureSpec[] = [
  {
    name: 'CLOSURE_F2P_Q',
    description: 'F2 of the proton, photon exchange, LO at μF = kF·Q',
    process: 'DIS NC',
    combination: F2_PROTON,
    points: 24,
    uncorrelated: 0.02,
    normalisation: 0.015,
  },
  {
    name: 'CLOSURE_F2D_Q',
    description: 'F2 of the deuteron per nucleon, photon exchange, LO at μF = kF·Q',
    process: 'DIS NC',
    combination: F2_DEUTERON,
    points: 20,
    uncorrelated: 0.02,
    normalisation: 0.015,
  },
  {
    name: 'CLOSURE_NU_F2_Q',
    description: 'F2 of ν p charged-current DIS (W⁺ exchange), LO at μF = kF·Q',
    process: 'DIS CC',
    combination: F2_NEUTRINO_PROTON,
    points: 16,
    uncorrelated: 0.03,
    normalisation: 0.02,
  },
  {
    name: 'CLOSURE_NU_XF3_Q',
    description:
      'xF3 of ν p charged-current DIS (W⁺ exchange), LO at μF = kF·Q; uncorrelated uncertainty 3 % of F2',
    process: 'DIS CC',
    combination: XF3_NEUTRINO_PROTON,
    points: 16,
    uncorrelated: 0.03,
    normalisation: 0.02,
    errorReference: F2_NEUTRINO_PROTON,
  },
];

/** The kinematics of DIS points, each shape `(data)`. */
export interface DisKinematics {
  /** Bjorken x. */
  readonly x: Float64Array;
  /** The photon or W virtuality Q² in GeV². */
  readonly q2: Float64Array;
  /** The inelasticity y = Q²/(x·s) at {@link SCALE_VARIED_CLOSURE_SQRT_S}. */
  readonly y: Float64Array;
}

/**
 * The kinematics of a scale-varied closure dataset of `count` points: x as
 * {@link closureXPoints} over {@link SCALE_VARIED_CLOSURE_X_RANGE}; Q² inside
 * {@link SCALE_VARIED_CLOSURE_Q2_RANGE}, cut further to what the point's x allows
 * (y ≤ {@link SCALE_VARIED_CLOSURE_MAX_Y} at √s = 318 GeV above, W² ≥
 * {@link SCALE_VARIED_CLOSURE_MIN_W2} GeV² below), stepping through four values equally spaced
 * in ln Q² from the bottom of that range to its top, point after point, so each region of x has
 * low and high Q².
 *
 * @throws InvalidArgumentError - as {@link closureXPoints}, for a count below 4
 */
export function scaleVariedClosureKinematics(count: number): DisKinematics {
  const [xMin, xMax] = SCALE_VARIED_CLOSURE_X_RANGE;
  const [q2Min, q2Max] = SCALE_VARIED_CLOSURE_Q2_RANGE;
  const s = SCALE_VARIED_CLOSURE_SQRT_S ** 2;
  const x = closureXPoints(count, xMin, xMax);
  const q2 = x.map((xn, n) => {
    const low = Math.max(q2Min, (SCALE_VARIED_CLOSURE_MIN_W2 * xn) / (1 - xn));
    const high = Math.min(q2Max, SCALE_VARIED_CLOSURE_MAX_Y * xn * s);
    return low * (high / low) ** ((n % Q2_STEPS) / (Q2_STEPS - 1));
  });
  const y = q2.map((q2n, n) => q2n / (x[n] * s));
  return { x, q2, y };
}

/** Options of {@link evolvedLoFkTable}. */
export interface EvolvedLoFkTableOptions {
  /** The table's name. */
  readonly name: string;
  /** What each point measures at its factorisation scale, in the flavour basis. */
  readonly combination: FlavourCombination;
  /** The x of each data point, shape `(data)`, inside the x-grid. */
  readonly x: Float64Array;
  /** The factorisation scale μF of each point in GeV, shape `(data)`, each in the operator's Q grid. */
  readonly factorisationScale: Float64Array;
  /** The table's x-grid, shape `(x)`, increasing, in (0, 1). */
  readonly xGrid: Float64Array;
  /**
   * The DGLAP operator from Q0 to every μF, on `xGrid` followed by x = 1 (the evolution's grids
   * end at 1, where x·f = 0: the table drops that node's column).
   */
  readonly operator: EvolutionOperator;
}

/**
 * The FK table of LO DIS at a factorisation scale above Q0: the flavour combination of x·f at
 * (x_n, μF_n), written as a map from x·f at Q0 on the x-grid,
 * FK[n, c_in, j] = Σ_{c_out} e_{c_out} Σ_i I_i(x_n) · E(μF_n)[c_out, i; c_in, j],
 * with e the combination in the evolution basis ({@link evolutionCoefficients}), I the
 * x-interpolation weights ({@link interpolationWeights}) and E the operator's flavour blocks
 * (x·f_out(x_i, μF) = Σ_j E[out, i; in, j] · x·f_in(x_j, Q0)). Its channels are the input
 * evolution flavours with a non-zero entry, ascending; its Q0 is the operator's.
 *
 * @returns values of shape `(data, channel, x)`
 * @throws InvalidArgumentError - naming the table, for a combination that is zero or not
 *   finite, an operator on another x-grid, lengths of `x` and `factorisationScale` that differ,
 *   a point outside the x-grid or a μF not in the operator's Q grid
 */
export function evolvedLoFkTable(options: EvolvedLoFkTableOptions): DisFkTable {
  const { name, combination, x, factorisationScale, xGrid, operator } = options;
  const nx = xGrid.length;
  const width = nx + 1;
  const sameGrid =
    operator.xGrid.length === width &&
    operator.xGrid[nx] === 1 &&
    xGrid.every((node, i) => operator.xGrid[i] === node);
  if (!sameGrid) {
    throw new InvalidArgumentError({
      argument: `operator of ${name}`,
      problem: `its x-grid (${operator.xGrid.length} nodes) is not the table's ${nx} nodes followed by x = 1`,
    });
  }
  if (factorisationScale.length !== x.length) {
    throw new InvalidArgumentError({
      argument: `factorisationScale of ${name}`,
      problem: `has ${factorisationScale.length} scales for ${x.length} points`,
    });
  }
  if (Object.values(combination).some((weight) => !Number.isFinite(weight))) {
    throw new InvalidArgumentError({
      argument: `combination of ${name}`,
      problem: 'has a coefficient that is not a finite number',
    });
  }
  const coefficients = evolutionCoefficients(combination);
  if (coefficients.every((value) => value === 0)) {
    throw new InvalidArgumentError({ argument: `combination of ${name}`, problem: 'is zero' });
  }
  // (data, input flavour, x), all 14 input flavours; compacted to the non-zero ones below
  const full = new Float64Array(x.length * EVOLUTION_BASIS_SIZE * nx);
  x.forEach((point, n) => {
    if (!(point >= xGrid[0] && point <= xGrid[nx - 1])) {
      throw new InvalidArgumentError({
        argument: `x of ${name}`,
        problem: `point ${n} (x = ${point}) is outside the x-grid [${xGrid[0]}, ${xGrid[nx - 1]}]`,
      });
    }
    const scale = operator.qGrid.lastIndexOf(factorisationScale[n]);
    if (scale === -1) {
      throw new InvalidArgumentError({
        argument: `factorisationScale of ${name}`,
        problem: `point ${n} (μF = ${factorisationScale[n]} GeV) is not in the operator's Q grid`,
      });
    }
    const { start, weights } = interpolationWeights(xGrid, point);
    for (const { output, input, matrix } of operator.blocks[scale]) {
      if (coefficients[output] === 0) continue;
      const target = (n * EVOLUTION_BASIS_SIZE + input) * nx;
      weights.forEach((weight, k) => {
        const factor = coefficients[output] * weight;
        const row = (start + k) * width;
        for (let j = 0; j < nx; j++) full[target + j] += factor * matrix[row + j];
      });
    }
  });
  const channels = [...Array(EVOLUTION_BASIS_SIZE).keys()].filter((flavour) =>
    x.some((_, n) => {
      const begin = (n * EVOLUTION_BASIS_SIZE + flavour) * nx;
      return full.subarray(begin, begin + nx).some((value) => value !== 0);
    }),
  );
  const values = new Float64Array(x.length * channels.length * nx);
  x.forEach((_, n) => {
    channels.forEach((flavour, c) => {
      const begin = (n * EVOLUTION_BASIS_SIZE + flavour) * nx;
      values.set(full.subarray(begin, begin + nx), (n * channels.length + c) * nx);
    });
  });
  return {
    name,
    file: GENERATED_FILE,
    hadronic: false,
    q0: operator.q0,
    ndata: x.length,
    xGrid,
    channels,
    values,
    cFactors: [],
  };
}

/** A scale-varied closure dataset: a {@link Bundle} whose FK table is at μF = kF·Q. */
export interface ScaleVariedClosureDataset extends Bundle {
  /** What it measures, for people. */
  readonly description: string;
  /** validphys's `nnpdf31_process`. */
  readonly process: DisProcess;
  /** The kinematics of each point: x, Q² (GeV²) and y, each shape `(data)`. */
  readonly kinematics: DisKinematics;
  /** The factorisation-scale ratio kF of the FK table. */
  readonly factorisationScaleRatio: number;
  /** The factorisation scale μF = kF·Q of each point in GeV, shape `(data)`. */
  readonly factorisationScale: Float64Array;
  /**
   * The toy PDF's predictions through the kF = 1 table, shape `(data)`: the level-0 data, the
   * "truth" the level-1 data scatter around, the same for every kF.
   */
  readonly toyPredictions: Float64Array;
  /**
   * The toy PDF's predictions through this kF's table, shape `(data)`: T(kF) of the known PDF
   * (equal to {@link ScaleVariedClosureDataset.toyPredictions} at kF = 1).
   */
  readonly toyPredictionsAtScale: Float64Array;
}

/** Options of {@link closureDatasetsAtScale}. */
export interface ClosureDatasetsAtScaleOptions extends ClosureDatasetsOptions {
  /**
   * kF = μF/Q, positive, and at least Q0/min Q = √(2/10) ≈ 0.447 so that μF stays above Q0:
   * validphys's variations use 1/2, 1 and 2. There is no renormalisation-scale ratio: at LO it
   * changes nothing.
   */
  readonly factorisationScaleRatio: number;
}

/** A dataset's FK tables at one kF: of its observable and of its uncertainty's reference. */
interface TablesAtScale {
  readonly observable: DisFkTable;
  readonly errorReference: DisFkTable;
}

/** The tables of {@link SCALE_VARIED_CLOSURE_SPECS} by kF, built once per process. */
const tablesByRatio = new Map<number, readonly TablesAtScale[]>();

/** The kinematics of each of {@link SCALE_VARIED_CLOSURE_SPECS}, in their order. */
function specKinematics(): DisKinematics[] {
  return SCALE_VARIED_CLOSURE_SPECS.map((spec) => scaleVariedClosureKinematics(spec.points));
}

/** The closure theory, `toyLH-LO`: LO, the toy PDF's Q0 and αs, VFNS up to 5 flavours. */
function closureTheoryCard(): TheoryCard {
  const card = embeddedTheoryCard(TOY_LH_LO_THEORY);
  if (card === undefined) {
    throw new InvalidArgumentError({
      argument: 'theory',
      problem: `@partonfit/evolution has no embedded theory card ${TOY_LH_LO_THEORY}`,
    });
  }
  return card;
}

/**
 * Checks kF against every point: a positive number with μF = kF·Q ≥ Q0.
 *
 * @throws InvalidArgumentError - naming the first point whose μF would be below Q0
 */
function checkFactorisationScaleRatio(ratio: number, kinematics: readonly DisKinematics[]): void {
  if (!(Number.isFinite(ratio) && ratio > 0)) {
    throw new InvalidArgumentError({
      argument: 'factorisationScaleRatio',
      problem: `expected a positive number, got ${ratio}`,
    });
  }
  const smallest = TOY_PDF_Q0 / Math.sqrt(SCALE_VARIED_CLOSURE_Q2_RANGE[0]);
  kinematics.forEach(({ q2 }, d) => {
    const below = q2.findIndex((q2n) => ratio * Math.sqrt(q2n) < TOY_PDF_Q0);
    if (below !== -1) {
      throw new InvalidArgumentError({
        argument: 'factorisationScaleRatio',
        problem: `${ratio} puts μF = kF·Q = ${ratio * Math.sqrt(q2[below])} GeV of ${SCALE_VARIED_CLOSURE_SPECS[d].name} point ${below} (Q² = ${q2[below]} GeV²) below Q0 = ${TOY_PDF_Q0} GeV, where the evolution cannot go; the smallest ratio is ${smallest}`,
      });
    }
  });
}

/** μF = kF·Q of every point, shape `(data)`. */
function factorisationScales(ratio: number, { q2 }: DisKinematics): Float64Array {
  return q2.map((q2n) => ratio * Math.sqrt(q2n));
}

/**
 * The tables of every scale-varied dataset at kF: one DGLAP operator from Q0 to the μF of all
 * points, built the first time a kF is asked for and kept for the process.
 */
function tablesAtScale(
  ratio: number,
  kinematics: readonly DisKinematics[],
): readonly TablesAtScale[] {
  const cached = tablesByRatio.get(ratio);
  if (cached !== undefined) return cached;
  const xGrid = closureXGrid();
  const scales = kinematics.map((points) => factorisationScales(ratio, points));
  const qGrid = [...new Set(scales.flatMap((mu) => [...mu]))].sort((a, b) => a - b);
  const operator = buildEvolutionOperator(closureTheoryCard(), {
    xGrid: Float64Array.from([...xGrid, 1]),
    qGrid,
  });
  const tables = SCALE_VARIED_CLOSURE_SPECS.map((spec, d) => {
    const common = { x: kinematics[d].x, factorisationScale: scales[d], xGrid, operator };
    const observable = evolvedLoFkTable({
      name: spec.name,
      combination: spec.combination,
      ...common,
    });
    const errorReference =
      spec.errorReference === undefined
        ? observable
        : evolvedLoFkTable({ name: spec.name, combination: spec.errorReference, ...common });
    return { observable, errorReference };
  });
  tablesByRatio.set(ratio, tables);
  return tables;
}

/**
 * The scale-varied closure datasets ({@link SCALE_VARIED_CLOSURE_SPECS}) with FK tables at
 * μF = kF·Q, each usable wherever a {@link Bundle} is. The FK table maps x·f of the fit at
 * Q0 = √2 GeV on {@link closureXGrid} (one grid object shared by the tables of the call) to the
 * observable at μF ({@link evolvedLoFkTable}, with `@partonfit/evolution`'s LO operator of the
 * closure theory `toyLH-LO`). The data and covariance do not depend on kF (the data are not
 * what a theory variation varies): level 0 is the toy PDF's predictions through the kF = 1
 * tables, level 1 those plus one fluctuation from `deriveNamedSeed(seed, name)` as
 * {@link closureDatasets}, and the covariance is {@link closureCovariance} of the kF = 1
 * predictions. The DGLAP operator of a kF (and of kF = 1, for the data) is built the first
 * time the kF is asked for, 0.1–0.3 s each on a 2-core machine, and its tables are kept for the
 * process (not the operator, ≈ 17 MB); later calls take a few milliseconds and return copies.
 *
 * @throws InvalidArgumentError - for a kF that is not positive or puts a point's μF below Q0,
 *   a level other than 0 or 1, or a seed that is not an unsigned 32-bit integer
 */
export function closureDatasetsAtScale(
  options: ClosureDatasetsAtScaleOptions,
): ScaleVariedClosureDataset[] {
  const { level, seed } = closureLevelAndSeed(options);
  const ratio = options.factorisationScaleRatio;
  const kinematics = specKinematics();
  checkFactorisationScaleRatio(ratio, kinematics);
  const central = tablesAtScale(1, kinematics);
  const varied = tablesAtScale(ratio, kinematics);
  const xGrid = closureXGrid();
  const toyAtGrid = toyPdfXf(xGrid);
  return SCALE_VARIED_CLOSURE_SPECS.map((spec, d) => {
    const fkTable = { ...varied[d].observable, xGrid, values: varied[d].observable.values.slice() };
    const toyPredictions = predictFkTable(central[d].observable, toyAtGrid);
    const covariance = closureCovariance(
      toyPredictions,
      predictFkTable(central[d].errorReference, toyAtGrid),
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
      kinematics: kinematics[d],
      factorisationScaleRatio: ratio,
      factorisationScale: factorisationScales(ratio, kinematics[d]),
      toyPredictions,
      toyPredictionsAtScale: predictFkTable(fkTable, toyAtGrid),
    };
  });
}
