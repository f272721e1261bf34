import { InputFileError, InvalidArgumentError, oneOf } from '@partonfit/core';
import { betaCoefficients } from './beta-function.js';
import {
  dropBelowBand,
  multiplyBanded,
  multiplyDense,
  type StateLayout,
} from './banded-product.js';
import { logLagrangeBasis, type LogLagrangeBasis } from './interpolation.js';
import {
  kernelMatrixPlan,
  localKernelMatrices,
  type KernelMatrices,
  type KernelMatrixPlan,
  type MatchingMatrices,
  type SplittingMatrices,
} from './kernel-matrices.js';
import { strongCouplingOfTheory } from './strong-coupling.js';
import type { EvolutionMethod, PerturbativeOrder, TheoryCard } from './theory-card.js';
import { LIGHT_FLAVOURS, thresholdsOfTheory } from './thresholds.js';

/** Default polynomial degree of the log-x interpolation. */
export const DEFAULT_INTERPOLATION_DEGREE = 4;
/** Default largest Runge–Kutta step in ln αs. */
export const DEFAULT_MAX_STEP = 0.05;

/** The grids and numerical settings of an evolution. */
export interface EvolutionOptions {
  /** The x knots (x) of the input and output PDFs: strictly increasing, ending at 1. */
  readonly xGrid: ArrayLike<number>;
  /**
   * The output scales Q (GeV), non-decreasing, none below the card's Q0. A scale may appear
   * twice only at a heavy-quark threshold: the first is then taken before the matching, the
   * second after it (LHAPDF's subgrid blocks); a threshold scale given once is after it.
   */
  readonly qGrid: readonly number[];
  /** The polynomial degree of the log-x interpolation (default {@link DEFAULT_INTERPOLATION_DEGREE}). */
  readonly interpolationDegree?: number;
  /** The solution method; default the card's `ModEv`. */
  readonly method?: EvolutionMethod;
  /** The largest fourth-order Runge–Kutta step in ln αs (default {@link DEFAULT_MAX_STEP}). */
  readonly maxStep?: number;
  /** What a scale exactly on a heavy-quark threshold holds (default `'consistent'`). */
  readonly thresholdKnots?: ThresholdKnots;
}

/**
 * What an output scale exactly on a heavy-quark threshold μ_h holds.
 *
 * - `'consistent'`: the first of two copies holds the nf-flavour PDFs at μ_h (αs of nf
 *   flavours), the second — or a single one — the (nf + 1)-flavour PDFs after the matching.
 * - `'evolven3fit'`: every copy holds the nf-flavour PDFs evolved to αs(μ_h) of nf + 1
 *   flavours, the heavy quark 0, as NNPDF4.0's LHAPDF grids have them: evolven3fit evolved each
 *   knot with APFEL, which takes μ² = m_h² as above the threshold for αs but below it for the
 *   PDFs. At mb = 4.92 GeV this is 0.14 % more αs than `'consistent'` and lowers g at x = 1e-5
 *   by 0.6 %, u by 0.3 %, which is what NNPDF4.0's grid has there. The evolution beyond μ_h
 *   does not change.
 */
export type ThresholdKnots = 'consistent' | 'evolven3fit';

const THRESHOLD_KNOTS: readonly ThresholdKnots[] = ['consistent', 'evolven3fit'];

/** Which splitting-function matrix drives a sector. */
export type SectorKind = 'singlet' | 'nsPlus' | 'nsMinus' | 'nsValence';

/** A part of the evolving PDFs or operator: rows evolved by one kernel, as a sum of truncation terms. */
export interface Sector {
  readonly kind: SectorKind;
  /** 2 for the singlet (Σ, g), else 1. */
  readonly blocks: number;
  /** Columns: the inputs it maps from (x or 2x). */
  readonly columns: number;
  /** The terms whose sum is the operator: one (EXA, LO) or order + 1 (TRN). */
  terms: Float64Array[];
}

export function identity(n: number): Float64Array {
  const matrix = new Float64Array(n * n);
  for (let i = 0; i < n; i++) matrix[i * n + i] = 1;
  return matrix;
}

export function sumTerms(terms: readonly Float64Array[]): Float64Array {
  const total = Float64Array.from(terms[0]);
  for (let t = 1; t < terms.length; t++) {
    const term = terms[t];
    for (let i = 0; i < total.length; i++) total[i] += term[i];
  }
  return total;
}

/** a·x + b·y, element-wise, as a new array. */
function combine(a: number, x: Float64Array, b: number, y: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = a * x[i] + b * y[i];
  return out;
}

/** The kernel matrices of one region of active flavours, for one solution method. */
interface RegionKernels {
  readonly nf: number;
  /**
   * The matrices multiplying the terms: for EXA the function a ↦ R(a) = −Σa^kP_k/Σβ_ka^k; for
   * TRN the fixed expansion R_0, R_1, R_2 of R(a) in a.
   */
  readonly exact: ((a: number) => Record<SectorKind, Float64Array>) | undefined;
  readonly truncated: readonly Record<SectorKind, Float64Array>[];
}

const KINDS: readonly SectorKind[] = ['singlet', 'nsPlus', 'nsMinus', 'nsValence'];

function linearCombination(
  matrices: readonly SplittingMatrices[],
  coefficients: readonly number[],
): Record<SectorKind, Float64Array> {
  const result = {} as Record<SectorKind, Float64Array>;
  for (const kind of KINDS) {
    const out = new Float64Array(matrices[0][kind].length);
    coefficients.forEach((coefficient, k) => {
      if (coefficient === 0) return;
      const matrix = matrices[k][kind];
      for (let i = 0; i < out.length; i++) out[i] += coefficient * matrix[i];
    });
    result[kind] = out;
  }
  return result;
}

function regionKernels(
  matrices: readonly SplittingMatrices[],
  order: PerturbativeOrder,
  nf: number,
  method: EvolutionMethod,
): RegionKernels {
  const beta = betaCoefficients(nf, order);
  if (method === 'EXA' || order === 0) {
    return {
      nf,
      exact: (a) => {
        let denominator = 0;
        for (let k = order; k >= 0; k--) denominator = denominator * a + beta[k];
        return linearCombination(
          matrices,
          matrices.map((_, k) => -(a ** k) / denominator),
        );
      },
      truncated: [],
    };
  }
  const b1 = beta[1] / beta[0];
  const b2 = order >= 2 ? beta[2] / beta[0] : 0;
  const inverse = -1 / beta[0];
  const expansion = [
    [inverse],
    [-b1 * inverse, inverse],
    [(b1 * b1 - b2) * inverse, -b1 * inverse, inverse],
  ];
  return {
    nf,
    exact: undefined,
    truncated: expansion.slice(0, order + 1).map((row) => linearCombination(matrices, row)),
  };
}

/** The arrays one sector's Runge–Kutta steps work in, each the size of one of its terms. */
interface StepWorkspace {
  /** The state a stage's derivative is taken at, per term. */
  readonly stage: Float64Array[];
  /** The derivative of the current stage, per term. */
  readonly slope: Float64Array[];
  /** k1 + 2k2 + 2k3 + k4 so far, per term. */
  readonly slopes: Float64Array[];
  /** Products of a kernel and a state. */
  readonly products: Float64Array[];
  /** Y0 + Y1 (the Karatsuba form of the NNLO truncated product). */
  readonly sum: Float64Array;
  /** R0 + a·R1, the size of the sector's kernel. */
  readonly kernelSum: Float64Array;
  /** The [start, end) ranges of a term that can be non-zero, see {@link nonZeroRanges}. */
  readonly ranges: Int32Array;
}

/**
 * The [start, end) index ranges of a sector's terms that can be non-zero, in pairs: the whole
 * array for PDFs; for an operator the entries of each (x out, x in) block from its lower band on
 * (the rest stays zero through every step).
 */
function nonZeroRanges(sector: Sector, n: number, layout: StateLayout): Int32Array {
  const size = sector.terms[0].length;
  if (layout === 'dense' || size === 0) return Int32Array.of(0, size);
  const { columns } = sector;
  const ranges: number[] = [];
  for (let row = 0; row < size / columns; row++) {
    const lead = Math.max(0, (row % n) - layout);
    for (let block = 0; block < columns / n; block++) {
      const start = row * columns + block * n + lead;
      if (ranges.length > 0 && ranges[ranges.length - 1] === start)
        ranges[ranges.length - 1] += n - lead;
      else ranges.push(start, start + n - lead);
    }
  }
  return Int32Array.from(ranges);
}

/** A sector's workspace, allocated at its first step and kept while its terms keep their size. */
function workspaceOf(
  workspaces: WeakMap<Sector, StepWorkspace>,
  sector: Sector,
  n: number,
  layout: StateLayout,
): StepWorkspace {
  const size = sector.terms[0].length;
  const existing = workspaces.get(sector);
  if (existing !== undefined && existing.sum.length === size) return existing;
  const arrays = (count: number) => Array.from({ length: count }, () => new Float64Array(size));
  const termCount = sector.terms.length;
  const workspace: StepWorkspace = {
    stage: arrays(termCount),
    slope: arrays(termCount),
    slopes: arrays(termCount),
    products: arrays(2),
    sum: new Float64Array(size),
    kernelSum: new Float64Array(termCount === 3 ? (sector.blocks * n) ** 2 : 0),
    ranges: nonZeroRanges(sector, n, layout),
  };
  workspaces.set(sector, workspace);
  return workspace;
}

/** out = x + b·y, element-wise, within `ranges` (see {@link nonZeroRanges}). */
function addScaled(
  out: Float64Array,
  x: Float64Array,
  b: number,
  y: Float64Array,
  ranges: Int32Array = Int32Array.of(0, out.length),
): void {
  for (let r = 0; r < ranges.length; r += 2) {
    for (let i = ranges[r]; i < ranges[r + 1]; i++) out[i] = x[i] + b * y[i];
  }
}

/**
 * dY_j/du for every term j of a sector at coupling a, into `slope`: the exact kernel times Y,
 * or the truncated product Σ_(k ≤ j) a^k R_k Y_(j−k). At NNLO the three terms take five kernel
 * products instead of six (Karatsuba): R0·Y0, R1·Y1, (R0 + a R1)(Y0 + Y1), R0·Y2 and R2·Y0.
 */
function derivative(
  sector: Sector,
  terms: readonly Float64Array[],
  kernels: RegionKernels,
  a: number,
  exactKernel: Record<SectorKind, Float64Array> | undefined,
  n: number,
  band: number,
  layout: StateLayout,
  workspace: StepWorkspace,
): void {
  const { slope, products } = workspace;
  const product = (matrix: Float64Array, state: Float64Array, out: Float64Array) => {
    multiplyBanded(matrix, state, out, n, sector.blocks, sector.columns, band, layout);
  };
  if (exactKernel !== undefined) {
    product(exactKernel[sector.kind], terms[0], slope[0]);
    return;
  }
  const expansion = kernels.truncated.map((matrices) => matrices[sector.kind]);
  if (terms.length === 3) {
    const [r0, r1, r2] = expansion;
    const { sum, kernelSum, ranges } = workspace;
    const a2 = a * a;
    addScaled(kernelSum, r0, a, r1);
    addScaled(sum, terms[0], 1, terms[1], ranges);
    const [r1y1, mixed] = products;
    product(r0, terms[0], slope[0]);
    product(r1, terms[1], r1y1);
    product(kernelSum, sum, mixed);
    product(r0, terms[2], slope[2]);
    product(r2, terms[0], slope[1]);
    const [s0, s1, s2] = slope;
    for (let r = 0; r < ranges.length; r += 2) {
      for (let i = ranges[r]; i < ranges[r + 1]; i++) {
        const p11 = a * r1y1[i];
        s2[i] += p11 + a2 * s1[i];
        s1[i] = mixed[i] - s0[i] - p11;
      }
    }
    return;
  }
  const [contribution] = products;
  terms.forEach((_, j) => {
    const out = slope[j];
    product(expansion[0], terms[j], out);
    for (let k = 1; k <= j; k++) {
      product(expansion[k], terms[j - k], contribution);
      const power = a ** k;
      for (let i = 0; i < out.length; i++) out[i] += power * contribution[i];
    }
  });
}

/**
 * Advances every sector from ln a = u0 to u1 by fourth-order Runge–Kutta steps, each sector's
 * terms in place.
 */
function evolveSectors(
  sectors: readonly Sector[],
  kernels: RegionKernels,
  u0: number,
  u1: number,
  maxStep: number,
  n: number,
  band: number,
  layout: StateLayout,
  workspaces: WeakMap<Sector, StepWorkspace>,
): void {
  if (u0 === u1) return;
  const steps = Math.max(1, Math.ceil(Math.abs(u1 - u0) / maxStep));
  const h = (u1 - u0) / steps;
  for (let step = 0; step < steps; step++) {
    const u = u0 + step * h;
    const kernelAt = (uu: number) => kernels.exact?.(Math.exp(uu));
    const start = kernelAt(u);
    const middle = kernelAt(u + h / 2);
    const end = kernelAt(u + h);
    // The stages: coupling, its exact kernel, the weight of its slope in the step, and how far
    // along the step the next stage's state lies.
    const stages = [
      { a: Math.exp(u), kernel: start, weight: 1, next: h / 2 },
      { a: Math.exp(u + h / 2), kernel: middle, weight: 2, next: h / 2 },
      { a: Math.exp(u + h / 2), kernel: middle, weight: 2, next: h },
      { a: Math.exp(u + h), kernel: end, weight: 1, next: 0 },
    ];
    for (const sector of sectors) {
      const workspace = workspaceOf(workspaces, sector, n, layout);
      const { stage, slope, slopes, ranges } = workspace;
      const x0 = sector.terms;
      stages.forEach(({ a, kernel, weight, next }, index) => {
        derivative(
          sector,
          index === 0 ? x0 : stage,
          kernels,
          a,
          kernel,
          n,
          band,
          layout,
          workspace,
        );
        x0.forEach((term, j) => {
          const k = slope[j];
          const total = slopes[j];
          const to = stage[j];
          for (let r = 0; r < ranges.length; r += 2) {
            const end = ranges[r + 1];
            if (index === 0) {
              for (let i = ranges[r]; i < end; i++) {
                total[i] = k[i];
                to[i] = term[i] + next * k[i];
              }
            } else if (next !== 0) {
              for (let i = ranges[r]; i < end; i++) {
                total[i] += weight * k[i];
                to[i] = term[i] + next * k[i];
              }
            } else {
              for (let i = ranges[r]; i < end; i++) total[i] += weight * k[i];
            }
          }
        });
      });
      x0.forEach((term, j) => {
        addScaled(term, term, h / 6, slopes[j], ranges);
      });
    }
  }
}

/** The evolving PDFs or operator: its sectors and which heavy quarks have been switched on. */
export interface EvolutionState {
  readonly singlet: Sector;
  readonly valence: Sector;
  /** T_k of the quarks active at Q0 (all share one operator). */
  readonly plus: Sector;
  /** V_k of the quarks active at Q0. */
  readonly minus: Sector;
  /** T and V of each heavy quark switched on after Q0, by number of flavours it completes. */
  readonly heavy: Map<number, { plus: Sector; minus: Sector }>;
}

function sectorsOf(state: EvolutionState): Sector[] {
  const heavy = [...state.heavy.values()].flatMap(({ plus, minus }) => [plus, minus]);
  return [state.singlet, state.valence, state.plus, state.minus, ...heavy];
}

/** A copy of an evolution state that evolves on its own. */
function copyState(state: EvolutionState): EvolutionState {
  const copySector = (sector: Sector): Sector => ({
    ...sector,
    terms: sector.terms.map((term) => Float64Array.from(term)),
  });
  return {
    singlet: copySector(state.singlet),
    valence: copySector(state.valence),
    plus: copySector(state.plus),
    minus: copySector(state.minus),
    heavy: new Map(
      [...state.heavy].map(([flavours, { plus, minus }]) => [
        flavours,
        { plus: copySector(plus), minus: copySector(minus) },
      ]),
    ),
  };
}

/** Collapses each sector's truncation terms into one, the start of a new segment. */
function restartSegment(state: EvolutionState, termCount: number): void {
  for (const sector of sectorsOf(state)) {
    const total = sumTerms(sector.terms);
    sector.terms = [
      total,
      ...Array.from({ length: termCount - 1 }, () => new Float64Array(total.length)),
    ];
  }
}

/** (1 + c·A)·S for a square A (rows, rows) and S (rows, columns). */
function applyMatching(
  matrix: Float64Array,
  state: Float64Array,
  rows: number,
  columns: number,
  coefficient: number,
): Float64Array {
  const correction = multiplyDense(matrix, state, rows, rows, columns);
  return combine(1, state, coefficient, correction);
}

/**
 * Switches on the heavy quark that makes nf + 1 flavours: at LO and NLO (and thresholds at the
 * mass) the PDFs are continuous and the new T/V equal Σ/V; at NNLO the O(a²) operator matrix
 * elements add h⁺ = a²(A_Hq Σ + A_Hg g), correct the light quarks and the gluon, and
 * T_new = (1 + a²A_ns)Σ − nf·h⁺.
 */
function crossThreshold(
  state: EvolutionState,
  nf: number,
  n: number,
  matching: MatchingMatrices | undefined,
  a: number,
  layout: StateLayout,
): void {
  const singletColumns = state.singlet.columns;
  const oldSinglet = sumTerms(state.singlet.terms);
  const oldSigma = oldSinglet.subarray(0, n * singletColumns);
  let newPlus: Float64Array;
  if (matching === undefined) {
    newPlus = Float64Array.from(oldSigma);
  } else {
    const a2 = a * a;
    const heavy = multiplyDense(matching.heavy, oldSinglet, n, 2 * n, singletColumns);
    const lightSigma = applyMatching(matching.nonSinglet, oldSigma, n, singletColumns, a2);
    newPlus = combine(1, lightSigma, -nf * a2, heavy);
    state.singlet.terms = [applyMatching(matching.singlet, oldSinglet, 2 * n, singletColumns, a2)];
    const nonSinglet = [
      state.valence,
      state.plus,
      state.minus,
      ...[...state.heavy.values()].flatMap(({ plus, minus }) => [plus, minus]),
    ];
    for (const sector of nonSinglet) {
      sector.terms = [
        applyMatching(matching.nonSinglet, sumTerms(sector.terms), n, sector.columns, a2),
      ];
    }
    if (layout !== 'dense') {
      for (const sector of [state.singlet, ...nonSinglet]) {
        dropBelowBand(sector.terms[0], n, sector.columns, layout);
      }
      dropBelowBand(newPlus, n, singletColumns, layout);
    }
  }
  state.heavy.set(nf + 1, {
    plus: { kind: 'nsPlus', blocks: 1, columns: singletColumns, terms: [newPlus] },
    minus: {
      kind: 'nsMinus',
      blocks: 1,
      columns: state.valence.columns,
      terms: [sumTerms(state.valence.terms)],
    },
  });
}

function unsupported(card: TheoryCard, key: string, problem: string): InputFileError {
  return new InputFileError({ file: card.file, key, problem });
}

/**
 * The number of PDF flavours at Q0 and the squared PDF thresholds, checked against the card: in
 * a fixed-flavour-number scheme `NfFF` and none; else 3 plus the thresholds below Q0 (a
 * threshold at Q0 itself is crossed, with its matching, on the way up).
 */
function flavoursAtQ0(card: TheoryCard): { nf0: number; thresholds2: number[] } {
  if (card.fixedFlavours === undefined && card.maxNfPdf !== card.maxNfAlphaS) {
    throw unsupported(
      card,
      'MaxNfPdf',
      `${card.maxNfPdf} differs from MaxNfAs = ${card.maxNfAlphaS}; only equal numbers are supported`,
    );
  }
  const thresholds2 = thresholdsOfTheory(card, card.maxNfPdf);
  const q02 = card.q0 * card.q0;
  const nf0 =
    card.fixedFlavours ??
    LIGHT_FLAVOURS + thresholds2.filter((threshold2) => threshold2 < q02).length;
  const where = card.fixedFlavours === undefined ? 'Q0 above the charm threshold' : 'NfFF > 3';
  if (card.intrinsicCharm && nf0 === LIGHT_FLAVOURS) {
    throw unsupported(card, 'IC', 'intrinsic charm needs Q0 above the charm threshold kcThr·mc');
  }
  if (!card.intrinsicCharm && nf0 > LIGHT_FLAVOURS) {
    throw unsupported(card, 'IC', `${where} needs IC: 1 (charm at Q0 is an input)`);
  }
  if (card.order > 0) {
    const orderName = card.order === 2 ? 'NNLO' : 'NLO';
    const ratios = [
      card.thresholdRatios.charm,
      card.thresholdRatios.bottom,
      card.thresholdRatios.top,
    ];
    thresholds2.forEach((threshold2, h) => {
      const key = (['kcThr', 'kbThr', 'ktThr'] as const)[h];
      if (threshold2 > q02 && ratios[h] !== 1) {
        throw unsupported(
          card,
          key,
          `${ratios[h]}: ${orderName} matching is supported at the mass (1.0) only`,
        );
      }
    });
  }
  return { nf0, thresholds2 };
}

function checkQGrid(qGrid: readonly number[], q0: number, thresholds2: readonly number[]): void {
  if (qGrid.length === 0)
    throw new InvalidArgumentError({ argument: 'qGrid', problem: 'expected at least one scale' });
  qGrid.forEach((q, i) => {
    if (!(q >= q0)) {
      throw new InvalidArgumentError({
        argument: 'qGrid',
        problem: `Q[${i}] = ${q} GeV is below Q0 = ${q0} GeV`,
      });
    }
    if (i === 0) return;
    const previous = qGrid[i - 1];
    if (q < previous || (q === previous && !thresholds2.includes(q * q))) {
      throw new InvalidArgumentError({
        argument: 'qGrid',
        problem: `expected increasing scales (repeated only at a threshold), got ${previous} then ${q} GeV`,
      });
    }
  });
}

/**
 * The starting values of the evolving sectors at Q0, each (rows, columns) row-major: the singlet
 * (Σ, g) stacked (2x rows), the valence V, the T_k (plus) and V_k (minus) of the quarks active at
 * Q0 (x rows each). For an operator they are identities, for PDFs the values themselves.
 */
export interface InitialSectors {
  /** `'dense'` for PDFs; for an operator its lower band (see {@link StateLayout}). */
  readonly layout: StateLayout;
  readonly singlet: { readonly values: Float64Array; readonly columns: number };
  readonly valence: { readonly values: Float64Array; readonly columns: number };
  readonly plus: { readonly values: Float64Array; readonly columns: number };
  readonly minus: { readonly values: Float64Array; readonly columns: number };
}

/** What {@link runEvolution} reports at each output scale. */
export interface EvolutionStep {
  /** The evolving sectors at this scale (sum the terms of each). */
  readonly state: EvolutionState;
  /** The number of active flavours. */
  readonly nf: number;
  /** The position in the Q grid. */
  readonly index: number;
  /** αs at this scale. */
  readonly alphaS: number;
}

/** The settings an evolution runs with, checked, and the PDF flavours at Q0. */
export interface EvolutionSetup {
  readonly basis: LogLagrangeBasis;
  readonly method: EvolutionMethod;
  readonly maxStep: number;
  /** Active PDF flavours at Q0. */
  readonly nf0: number;
  /** The squared PDF thresholds (GeV²). */
  readonly thresholds2: readonly number[];
  readonly thresholdKnots: ThresholdKnots;
}

/**
 * Checks a card and options and builds the interpolation basis.
 *
 * @throws InvalidArgumentError for a bad x-grid or Q grid (a scale below Q0, decreasing scales)
 * @throws InputFileError naming the card's key for settings not supported here
 */
export function evolutionSetup(card: TheoryCard, options: EvolutionOptions): EvolutionSetup {
  const basis = logLagrangeBasis(
    options.xGrid,
    options.interpolationDegree ?? DEFAULT_INTERPOLATION_DEGREE,
  );
  const maxStep = options.maxStep ?? DEFAULT_MAX_STEP;
  if (!(maxStep > 0))
    throw new InvalidArgumentError({
      argument: 'maxStep',
      problem: `expected > 0, got ${maxStep}`,
    });
  const thresholdKnots = oneOf(
    options.thresholdKnots ?? 'consistent',
    THRESHOLD_KNOTS,
    'thresholdKnots',
  );
  const { nf0, thresholds2 } = flavoursAtQ0(card);
  checkQGrid(options.qGrid, card.q0, thresholds2);
  return {
    basis,
    method: options.method ?? card.evolutionMethod,
    maxStep,
    nf0,
    thresholds2,
    thresholdKnots,
  };
}

/**
 * The convolutions an evolution through a Q grid needs: the splitting functions of the card's
 * order at every number of flavours from Q0 up to the last scale, and the NNLO matching if a
 * threshold is crossed at NNLO.
 */
export function kernelMatrixPlanOf(
  card: TheoryCard,
  setup: EvolutionSetup,
  qGrid: readonly number[],
): KernelMatrixPlan {
  const { nf0, thresholds2 } = setup;
  const last = qGrid[qGrid.length - 1];
  const crossed = thresholds2
    .slice(nf0 - LIGHT_FLAVOURS)
    .filter((threshold2) => threshold2 <= last * last).length;
  const flavourNumbers = Array.from({ length: crossed + 1 }, (_, k) => nf0 + k);
  return kernelMatrixPlan(card.order, flavourNumbers, card.order === 2 && crossed > 0);
}

/**
 * Evolves sectors from Q0 through every scale of the Q grid (see {@link EvolutionOptions}),
 * crossing the heavy-quark thresholds on the way, and reports each scale.
 *
 * @param card - the theory card
 * @param setup - from {@link evolutionSetup}
 * @param qGrid - the output scales
 * @param initial - the sectors at Q0
 * @param onScale - called at every output scale, in order
 * @param matrices - the kernel matrices (default: those of {@link kernelMatrixPlanOf}, computed
 *   on this thread)
 */
export function runEvolution(
  card: TheoryCard,
  setup: EvolutionSetup,
  qGrid: readonly number[],
  initial: InitialSectors,
  onScale: (step: EvolutionStep) => void,
  matrices: KernelMatrices = localKernelMatrices(
    kernelMatrixPlanOf(card, setup, qGrid),
    setup.basis,
  ),
): void {
  const { basis, method, maxStep, nf0, thresholds2 } = setup;
  const n = basis.xGrid.length;
  const band = basis.degree;
  const order = card.order;
  const coupling = strongCouplingOfTheory({ ...card, evolutionMethod: method });
  const termCount = method === 'TRN' ? order + 1 : 1;
  const sector = (
    kind: SectorKind,
    blocks: number,
    start: { values: Float64Array; columns: number },
  ): Sector => ({
    kind,
    blocks,
    columns: start.columns,
    terms: [
      Float64Array.from(start.values),
      ...Array.from({ length: termCount - 1 }, () => new Float64Array(start.values.length)),
    ],
  });
  const state: EvolutionState = {
    singlet: sector('singlet', 2, initial.singlet),
    valence: sector('nsValence', 1, initial.valence),
    plus: sector('nsPlus', 1, initial.plus),
    minus: sector('nsMinus', 1, initial.minus),
    heavy: new Map(),
  };
  const regions = new Map<number, RegionKernels>();
  const kernelsOf = (nf: number) => {
    let kernels = regions.get(nf);
    if (kernels === undefined) {
      kernels = regionKernels(matrices.splitting(nf), order, nf, method);
      regions.set(nf, kernels);
    }
    return kernels;
  };
  const workspaces = new WeakMap<Sector, StepWorkspace>();
  const logA = (q: number, nf: number) => Math.log(coupling.alphaS(q, nf) / (4 * Math.PI));
  let nf = nf0;
  let q = card.q0;
  // evolven3fit's threshold knot: the nf-flavour state at the threshold, evolved on to αs of
  // nf + 1 flavours there
  const unmatchedKnot = (threshold: number): EvolutionState => {
    const knot = copyState(state);
    evolveSectors(
      sectorsOf(knot),
      kernelsOf(nf),
      logA(threshold, nf),
      logA(threshold, nf + 1),
      maxStep,
      n,
      band,
      initial.layout,
      workspaces,
    );
    return knot;
  };
  qGrid.forEach((target, index) => {
    const repeatedNext = qGrid[index + 1] === target;
    let knot: { state: EvolutionState; nf: number; alphaS: number } | undefined;
    for (;;) {
      if (nf - LIGHT_FLAVOURS >= thresholds2.length) break;
      const threshold2 = thresholds2[nf - LIGHT_FLAVOURS];
      const crossing =
        target * target > threshold2 || (target * target === threshold2 && !repeatedNext);
      if (!crossing) break;
      const threshold = Math.sqrt(threshold2);
      evolveSectors(
        sectorsOf(state),
        kernelsOf(nf),
        logA(q, nf),
        logA(threshold, nf),
        maxStep,
        n,
        band,
        initial.layout,
        workspaces,
      );
      if (setup.thresholdKnots === 'evolven3fit' && threshold2 === target * target) {
        knot = { state: unmatchedKnot(threshold), nf, alphaS: coupling.alphaS(threshold, nf + 1) };
      }
      crossThreshold(
        state,
        nf,
        n,
        order === 2 ? matrices.matching() : undefined,
        coupling.alphaS(threshold, nf + 1) / (4 * Math.PI),
        initial.layout,
      );
      nf++;
      q = threshold;
      restartSegment(state, termCount);
    }
    evolveSectors(
      sectorsOf(state),
      kernelsOf(nf),
      logA(q, nf),
      logA(target, nf),
      maxStep,
      n,
      band,
      initial.layout,
      workspaces,
    );
    q = target;
    if (
      setup.thresholdKnots === 'evolven3fit' &&
      repeatedNext &&
      thresholds2.includes(target * target)
    ) {
      knot = { state: unmatchedKnot(target), nf, alphaS: coupling.alphaS(target, nf + 1) };
    }
    onScale(
      knot === undefined
        ? { state, nf, index, alphaS: coupling.alphaS(target, nf) }
        : { ...knot, index },
    );
  });
}
