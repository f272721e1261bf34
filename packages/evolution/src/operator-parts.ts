import {
  evolutionSetup,
  kernelMatrixPlanOf,
  runEvolution,
  sumTerms,
  type EvolutionOptions,
  type EvolutionState,
  type InitialSectors,
  type Sector,
} from './evolution-run.js';
import { sharedKernelMatrices, type SharedKernelMemory } from './shared-kernel-matrices.js';
import type { TheoryCard } from './theory-card.js';

/**
 * The two halves an operator's construction splits into, by the inputs at Q0 they evolve:
 * `quarkSinglet` the Σ columns (with the T of heavy quarks made from them) and the valence V
 * (with the heavy V_k); `gluon` the g columns (and their heavy T) and the T_k and V_k of the
 * quarks active at Q0. Columns of an operator evolve independently, so the halves are exact and
 * cost about the same.
 */
export type OperatorPart = 'quarkSinglet' | 'gluon';

/** Both halves of an operator. */
export const OPERATOR_PARTS: readonly OperatorPart[] = ['quarkSinglet', 'gluon'];

/** What a worker building half an operator is given. */
export interface OperatorPartJob {
  readonly card: TheoryCard;
  readonly options: EvolutionOptions;
  readonly part: OperatorPart;
  readonly lowerBand: number;
  /** The kernel matrices, computed by the halves together (see {@link sharedKernelMatrices}). */
  readonly kernels?: SharedKernelMemory;
}

/** A half's evolved sectors at one output scale, each (rows, columns) row-major. */
export interface OperatorPartStep {
  /** The position in the Q grid. */
  readonly index: number;
  /** The number of active flavours. */
  readonly nf: number;
  /** αs at this scale. */
  readonly alphaS: number;
  /** (Σ and g out: 2x, this half's singlet input: x). */
  readonly singlet: Float64Array;
  /** (x, x) for `quarkSinglet`, empty for `gluon`. */
  readonly valence: Float64Array;
  /** (x, x) for `gluon`, empty for `quarkSinglet`. */
  readonly plus: Float64Array;
  /** (x, x) for `gluon`, empty for `quarkSinglet`. */
  readonly minus: Float64Array;
  /** Each heavy quark switched on: T from this half's singlet input (x, x), V as `valence`. */
  readonly heavy: readonly { flavours: number; plus: Float64Array; minus: Float64Array }[];
}

/** (rows, n) with an identity in the n rows from `offset`. */
function identityColumns(rows: number, n: number, offset: number): Float64Array {
  const values = new Float64Array(rows * n);
  for (let i = 0; i < n; i++) values[(offset + i) * n + i] = 1;
  return values;
}

const NONE = { values: new Float64Array(0), columns: 0 };

function initialSectors(part: OperatorPart, n: number, lowerBand: number): InitialSectors {
  const square = { values: identityColumns(n, n, 0), columns: n };
  const quarks = part === 'quarkSinglet';
  return {
    layout: lowerBand,
    singlet: { values: identityColumns(2 * n, n, quarks ? 0 : n), columns: n },
    valence: quarks ? square : NONE,
    plus: quarks ? NONE : square,
    minus: quarks ? NONE : square,
  };
}

/**
 * Evolves one half of an operator (see {@link OperatorPart}) and reports its sectors at every
 * output scale.
 *
 * @param job - the half, and the shared memory of the kernel matrices when the other half is
 *   evolved at the same time by another thread (else this thread computes them all)
 * @throws as {@link evolutionSetup}
 */
export function runOperatorPart(
  { card, options, part, lowerBand, kernels }: OperatorPartJob,
  onStep: (step: OperatorPartStep) => void,
): void {
  const setup = evolutionSetup(card, options);
  const n = setup.basis.xGrid.length;
  const plan = kernelMatrixPlanOf(card, setup, options.qGrid);
  const share = OPERATOR_PARTS.indexOf(part);
  runEvolution(
    card,
    setup,
    options.qGrid,
    initialSectors(part, n, lowerBand),
    ({ state, nf, index, alphaS }) => {
      onStep({
        index,
        nf,
        alphaS,
        singlet: sumTerms(state.singlet.terms),
        valence: sumTerms(state.valence.terms),
        plus: sumTerms(state.plus.terms),
        minus: sumTerms(state.minus.terms),
        heavy: [...state.heavy].map(([flavours, { plus, minus }]) => ({
          flavours,
          plus: sumTerms(plus.terms),
          minus: sumTerms(minus.terms),
        })),
      });
    },
    kernels === undefined
      ? undefined
      : sharedKernelMatrices(plan, setup.basis, kernels, share, OPERATOR_PARTS.length),
  );
}

/** [left | right] for row-major (rows, leftColumns) and (rows, rightColumns). */
function besideEachOther(left: Float64Array, right: Float64Array, rows: number): Float64Array {
  const leftColumns = left.length / rows;
  const rightColumns = right.length / rows;
  const width = leftColumns + rightColumns;
  const out = new Float64Array(rows * width);
  for (let row = 0; row < rows; row++) {
    out.set(left.subarray(row * leftColumns, (row + 1) * leftColumns), row * width);
    out.set(
      right.subarray(row * rightColumns, (row + 1) * rightColumns),
      row * width + leftColumns,
    );
  }
  return out;
}

function sectorOf(kind: Sector['kind'], blocks: number, matrix: Float64Array, n: number): Sector {
  return { kind, blocks, columns: matrix.length / (blocks * n), terms: [matrix] };
}

/**
 * The whole operator's state at one scale from its two halves there.
 *
 * @param quarkSinglet - the `quarkSinglet` half's step
 * @param gluon - the `gluon` half's step at the same scale
 */
export function joinOperatorParts(
  quarkSinglet: OperatorPartStep,
  gluon: OperatorPartStep,
  n: number,
): EvolutionState {
  const gluonHeavy = new Map(gluon.heavy.map((heavy) => [heavy.flavours, heavy]));
  return {
    singlet: sectorOf('singlet', 2, besideEachOther(quarkSinglet.singlet, gluon.singlet, 2 * n), n),
    valence: sectorOf('nsValence', 1, quarkSinglet.valence, n),
    plus: sectorOf('nsPlus', 1, gluon.plus, n),
    minus: sectorOf('nsMinus', 1, gluon.minus, n),
    heavy: new Map(
      quarkSinglet.heavy.map(({ flavours, plus, minus }) => {
        const fromGluon = gluonHeavy.get(flavours)?.plus ?? new Float64Array(plus.length);
        return [
          flavours,
          {
            plus: sectorOf('nsPlus', 1, besideEachOther(plus, fromGluon, n), n),
            minus: sectorOf('nsMinus', 1, minus, n),
          },
        ];
      }),
    ),
  };
}
