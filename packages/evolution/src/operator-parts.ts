import type { ScaleMatrices } from './evolution-operator.js';
import {
  evolutionSetup,
  kernelMatrixPlanOf,
  runEvolution,
  sumTerms,
  type EvolutionOptions,
  type InitialSectors,
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

/**
 * The whole operator's matrices at one scale from its two halves there. Each half's singlet is
 * (Σ and g out: 2x, its input: x), so its upper and lower halves are the blocks of Σ and of g;
 * the other matrices are taken as they are.
 *
 * @param quarkSinglet - the `quarkSinglet` half's step
 * @param gluon - the `gluon` half's step at the same scale
 */
export function joinOperatorParts(
  quarkSinglet: OperatorPartStep,
  gluon: OperatorPartStep,
  n: number,
): ScaleMatrices {
  const gluonHeavy = new Map(gluon.heavy.map((heavy) => [heavy.flavours, heavy]));
  return {
    sigmaFromSigma: quarkSinglet.singlet.slice(0, n * n),
    sigmaFromGluon: gluon.singlet.slice(0, n * n),
    gluonFromSigma: quarkSinglet.singlet.slice(n * n),
    gluonFromGluon: gluon.singlet.slice(n * n),
    valence: quarkSinglet.valence,
    plus: gluon.plus,
    minus: gluon.minus,
    heavy: new Map(
      quarkSinglet.heavy.map(({ flavours, plus, minus }) => [
        flavours,
        {
          plusFromSigma: plus,
          plusFromGluon: gluonHeavy.get(flavours)?.plus ?? new Float64Array(plus.length),
          minus,
        },
      ]),
    ),
  };
}
