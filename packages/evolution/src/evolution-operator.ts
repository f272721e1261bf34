import { evolutionIndex } from '@partonfit/core';
import {
  evolutionSetup,
  identity,
  runEvolution,
  sumTerms,
  type EvolutionOptions,
  type EvolutionSetup,
  type EvolutionState,
} from './evolution-run.js';
import type { TheoryCard } from './theory-card.js';

/**
 * The sub-diagonals kept below the diagonal of each (x out, x in) block while an operator is
 * built, per degree of the interpolation: the operator is upper triangular (x·f at x only depends
 * on x·f at and above x) but for the interpolation stencil's reach, which decays geometrically
 * with each further sub-diagonal: on theory 200's grid at NLO, the 12th sub-diagonal is below
 * 10⁻¹⁸ of the largest entry. Keeping 3·degree of them, an operator applied to PDFs equals the
 * PDFs evolved directly (nothing dropped) to 10⁻¹² of the largest value (tested); it takes a third
 * of the products of a full one.
 */
export const OPERATOR_LOWER_BAND_PER_DEGREE = 3;

/** One non-zero flavour block of an evolution operator. */
export interface OperatorBlock {
  /** The output flavour's index in the evolution basis (`EVOLUTION_BASIS`). */
  readonly output: number;
  /** The input flavour's index in the evolution basis. */
  readonly input: number;
  /** (x out, x in) row-major: x·f_output(x_i, Q) = Σ_j matrix[i, j]·x·f_input(x_j, Q0). */
  readonly matrix: Float64Array;
}

/**
 * A DGLAP evolution operator: the linear map from x·f at Q0 on an x-grid to x·f on the same
 * grid at every scale of a Q grid, in the 14-flavour evolution basis, stored as its non-zero
 * flavour blocks (the photon is not evolved: its output is zero).
 */
export interface EvolutionOperator {
  /** The x knots (x). */
  readonly xGrid: Float64Array;
  /** The input scale Q0 (GeV). */
  readonly q0: number;
  /** The output scales (q), in GeV. */
  readonly qGrid: Float64Array;
  /** The number of active flavours of the PDFs at each output scale (q). */
  readonly activeFlavours: readonly number[];
  /** αs at each output scale (q), with the number of active flavours of that scale. */
  readonly alphaS: Float64Array;
  /** The flavour blocks at each output scale: blocks[q]. */
  readonly blocks: readonly (readonly OperatorBlock[])[];
}

/** Evolution-basis index of T and V for the quark completing `flavours` flavours (2 … 6). */
export function nonSingletIndices(flavours: number): { plus: number; minus: number } {
  const names = ['3', '8', '15', '24', '35'] as const;
  const suffix = names[flavours - 2];
  return {
    plus: evolutionIndex(`T${suffix}`),
    minus: evolutionIndex(`V${suffix}`),
  };
}

/** Rows [from, to) of a row-major matrix with `columns` columns, columns [c0, c1). */
function subMatrix(
  matrix: Float64Array,
  columns: number,
  rowStart: number,
  rowEnd: number,
  columnStart: number,
  columnEnd: number,
): Float64Array {
  const width = columnEnd - columnStart;
  const out = new Float64Array((rowEnd - rowStart) * width);
  for (let row = rowStart; row < rowEnd; row++) {
    out.set(
      matrix.subarray(row * columns + columnStart, row * columns + columnEnd),
      (row - rowStart) * width,
    );
  }
  return out;
}

/** The evolved sectors of an operator at one scale, each an (x out, x in) matrix. */
export interface ScaleMatrices {
  readonly sigmaFromSigma: Float64Array;
  readonly sigmaFromGluon: Float64Array;
  readonly gluonFromSigma: Float64Array;
  readonly gluonFromGluon: Float64Array;
  readonly valence: Float64Array;
  /** T_k of the quarks active at Q0 (all share one matrix). */
  readonly plus: Float64Array;
  /** V_k of the quarks active at Q0. */
  readonly minus: Float64Array;
  /** Each heavy quark switched on after Q0, by the number of flavours it completes. */
  readonly heavy: ReadonlyMap<
    number,
    {
      readonly plusFromSigma: Float64Array;
      readonly plusFromGluon: Float64Array;
      readonly minus: Float64Array;
    }
  >;
}

/** The matrices of an evolution state at one scale (copies: the state evolves on). */
function scaleMatricesOf(state: EvolutionState, n: number): ScaleMatrices {
  const singlet = sumTerms(state.singlet.terms);
  return {
    sigmaFromSigma: subMatrix(singlet, 2 * n, 0, n, 0, n),
    sigmaFromGluon: subMatrix(singlet, 2 * n, 0, n, n, 2 * n),
    gluonFromSigma: subMatrix(singlet, 2 * n, n, 2 * n, 0, n),
    gluonFromGluon: subMatrix(singlet, 2 * n, n, 2 * n, n, 2 * n),
    valence: sumTerms(state.valence.terms),
    plus: sumTerms(state.plus.terms),
    minus: sumTerms(state.minus.terms),
    heavy: new Map(
      [...state.heavy].map(([flavours, { plus, minus }]) => {
        const heavyPlus = sumTerms(plus.terms);
        return [
          flavours,
          {
            plusFromSigma: subMatrix(heavyPlus, 2 * n, 0, n, 0, n),
            plusFromGluon: subMatrix(heavyPlus, 2 * n, 0, n, n, 2 * n),
            minus: sumTerms(minus.terms),
          },
        ];
      }),
    ),
  };
}

/** The operator's flavour blocks at one scale with nf active flavours (nf0 at Q0). */
export function operatorBlocks(matrices: ScaleMatrices, nf0: number, nf: number): OperatorBlock[] {
  const sigma = evolutionIndex('Sigma');
  const gluon = evolutionIndex('g');
  const valence = evolutionIndex('V');
  const { sigmaFromSigma, sigmaFromGluon, valence: valenceBlock, plus, minus } = matrices;
  const blocks: OperatorBlock[] = [
    { output: sigma, input: sigma, matrix: sigmaFromSigma },
    { output: sigma, input: gluon, matrix: sigmaFromGluon },
    { output: gluon, input: sigma, matrix: matrices.gluonFromSigma },
    { output: gluon, input: gluon, matrix: matrices.gluonFromGluon },
    { output: valence, input: valence, matrix: valenceBlock },
  ];
  for (let flavours = 2; flavours <= 6; flavours++) {
    const { plus: t, minus: v } = nonSingletIndices(flavours);
    const heavy = matrices.heavy.get(flavours);
    if (flavours <= nf0) {
      blocks.push({ output: t, input: t, matrix: plus }, { output: v, input: v, matrix: minus });
    } else if (heavy !== undefined && flavours <= nf) {
      blocks.push(
        { output: t, input: sigma, matrix: heavy.plusFromSigma },
        { output: t, input: gluon, matrix: heavy.plusFromGluon },
        { output: v, input: valence, matrix: heavy.minus },
      );
    } else {
      blocks.push(
        { output: t, input: sigma, matrix: sigmaFromSigma },
        { output: t, input: gluon, matrix: sigmaFromGluon },
        { output: v, input: valence, matrix: valenceBlock },
      );
    }
  }
  return blocks;
}

/**
 * Builds the DGLAP evolution operator of a theory from Q0 to every scale of a Q grid on an
 * x-grid, in float64: x-space evolution of the 13 flavours (photon off) on a log-x Lagrange
 * basis, the singlet (Σ, g) and the non-singlet T (+), V_k (−) and V (valence) sectors with the
 * splitting functions at the card's order (LO, NLO exact, NNLO in Moch–Vermaseren–Vogt's
 * parametrisation), solved in ln αs by fourth-order Runge–Kutta steps, either exactly (`EXA`) or
 * truncated at the order (`TRN`, the ε-expansion of the solution in each flavour-number region,
 * NNPDF4.0's choice), with αs from {@link strongCouplingOfTheory}. Heavy quarks switch on at
 * their thresholds in the variable-flavour-number scheme up to `MaxNfPdf`, with the O(αs²)
 * operator matrix elements at NNLO; with `IC: 1` charm is fitted at Q0 and evolves as a light
 * quark. Heavy quarks not active at Q0 are assumed to vanish there (their T/V inputs are not
 * read).
 *
 * @param card - the theory card
 * @param options - the grids and numerical settings
 * @throws InvalidArgumentError for a bad x-grid or Q grid (a scale below Q0, decreasing scales)
 * @throws InputFileError naming the card's key for settings not supported here
 */
export function buildEvolutionOperator(
  card: TheoryCard,
  options: EvolutionOptions,
): EvolutionOperator {
  const setup = evolutionSetup(card, options);
  const n = setup.basis.xGrid.length;
  const recorder = operatorRecorder(card, setup, options.qGrid);
  const square = { values: identity(n), columns: n };
  runEvolution(
    card,
    setup,
    options.qGrid,
    {
      layout: operatorLowerBand(setup),
      singlet: { values: identity(2 * n), columns: 2 * n },
      valence: square,
      plus: square,
      minus: square,
    },
    (step) => {
      recorder.record(scaleMatricesOf(step.state, n), step.nf, step.alphaS);
    },
  );
  return recorder.operator();
}

/** The sub-diagonals an operator keeps below each block's diagonal while it is built. */
export function operatorLowerBand(setup: EvolutionSetup): number {
  return OPERATOR_LOWER_BAND_PER_DEGREE * setup.basis.degree;
}

/** Collects an operator's blocks scale by scale, in the order of the Q grid. */
export function operatorRecorder(
  card: TheoryCard,
  setup: EvolutionSetup,
  qGrid: readonly number[],
): {
  record(matrices: ScaleMatrices, nf: number, alphaS: number): void;
  operator(): EvolutionOperator;
} {
  const blocks: OperatorBlock[][] = [];
  const activeFlavours: number[] = [];
  const alphaS: number[] = [];
  return {
    record(matrices, nf, value) {
      blocks.push(operatorBlocks(matrices, setup.nf0, nf));
      activeFlavours.push(nf);
      alphaS.push(value);
    },
    operator: () => ({
      xGrid: setup.basis.xGrid,
      q0: card.q0,
      qGrid: Float64Array.from(qGrid),
      activeFlavours,
      alphaS: Float64Array.from(alphaS),
      blocks,
    }),
  };
}
