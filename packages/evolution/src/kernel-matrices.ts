import type { Kernel } from './kernels/kernel.js';
import { NNLO_MATCHING_KERNELS } from './kernels/matching-kernels.js';
import { splittingKernels } from './kernels/splitting-functions.js';
import { convolutionMatrices } from './convolution.js';
import type { LogLagrangeBasis } from './interpolation.js';
import type { PerturbativeOrder } from './theory-card.js';

/**
 * The splitting functions of one order on an x-grid: each is an (x, x) matrix of
 * {@link convolutionMatrix}; the singlet is the (2x, 2x) matrix ((qq, qg), (gq, gg)) acting on
 * (Σ, g) stacked.
 */
export interface SplittingMatrices {
  readonly nsPlus: Float64Array;
  readonly nsMinus: Float64Array;
  readonly nsValence: Float64Array;
  readonly singlet: Float64Array;
}

/**
 * The O(a²) matching of a heavy-quark threshold at μ = m on an x-grid (see
 * {@link MatchingKernels}): `nonSinglet` (x, x) for every light quark combination, `singlet`
 * (2x, 2x) for (Σ, g) of nf → nf + 1 flavours ((A_ns + A_Hq^PS, A_Hg), (A_gq,H, A_gg,H)), and
 * `heavy` (x, 2x): h⁺ from (Σ, g), (A_Hq^PS, A_Hg).
 */
export interface MatchingMatrices {
  readonly nonSinglet: Float64Array;
  readonly singlet: Float64Array;
  readonly heavy: Float64Array;
}

/** The kernel matrices an evolution runs with. */
export interface KernelMatrices {
  /** The splitting-function matrices P^(k), k = 0 … order, for nf active flavours. */
  splitting(nf: number): readonly SplittingMatrices[];
  /** The NNLO matching matrices at μ = m. */
  matching(): MatchingMatrices;
}

/** The (2n, 2n) matrix ((a, b), (c, d)) of four (n, n) blocks. */
function stackBlocks(
  blocks: readonly [Float64Array, Float64Array, Float64Array, Float64Array],
  n: number,
): Float64Array {
  const out = new Float64Array(4 * n * n);
  blocks.forEach((block, index) => {
    const rowOffset = (index >> 1) * n;
    const columnOffset = (index & 1) * n;
    for (let i = 0; i < n; i++) {
      out.set(block.subarray(i * n, (i + 1) * n), (rowOffset + i) * 2 * n + columnOffset);
    }
  });
  return out;
}

/** Where each splitting function of one order and nf is among a plan's kernels. */
interface SplittingIndices {
  readonly nsPlus: number;
  readonly nsMinus: number;
  readonly nsValence: number;
  readonly qq: number;
  readonly qg: number;
  readonly gq: number;
  readonly gg: number;
}

/**
 * Every convolution an evolution needs: the splitting functions of each order at each number of
 * flavours it evolves with, and the NNLO matching. Kernels that are the same function (P_ns⁺ and
 * P_ns⁻ at LO, …) are convolved once.
 */
export interface KernelMatrixPlan {
  /** The kernels to convolve, indexed. */
  readonly kernels: readonly Kernel[];
  /** The kernels' indices in groups computed together: one order at one nf, and the matching. */
  readonly groups: readonly (readonly number[])[];
  /** The group holding each kernel. */
  readonly groupOf: readonly number[];
  /** The matrices of {@link KernelMatrices} from the kernels' convolution matrices. */
  kernelMatrices(matrixOf: (index: number) => Float64Array, n: number): KernelMatrices;
}

/**
 * The convolutions of an evolution at `order` with `flavourNumbers` active flavours, with the
 * NNLO matching if `matching`.
 */
export function kernelMatrixPlan(
  order: PerturbativeOrder,
  flavourNumbers: readonly number[],
  matching: boolean,
): KernelMatrixPlan {
  const kernels: Kernel[] = [];
  const groups: number[][] = [];
  const groupOf: number[] = [];
  const group = (members: readonly Kernel[]): number[] => {
    const added: number[] = [];
    const indices = members.map((kernel) => {
      const known = kernels.indexOf(kernel);
      if (known >= 0) return known;
      kernels.push(kernel);
      groupOf.push(groups.length);
      added.push(kernels.length - 1);
      return kernels.length - 1;
    });
    groups.push(added);
    return indices;
  };
  const splittingIndices = new Map<number, SplittingIndices[]>();
  for (const nf of flavourNumbers) {
    const orders: SplittingIndices[] = [];
    for (let k = 0; k <= order; k++) {
      const { nsPlus, nsMinus, nsValence, qq, qg, gq, gg } = splittingKernels(
        k as PerturbativeOrder,
        nf,
      );
      const [plus, minus, valence, quarkQuark, quarkGluon, gluonQuark, gluonGluon] = group([
        nsPlus,
        nsMinus,
        nsValence,
        qq,
        qg,
        gq,
        gg,
      ]);
      orders.push({
        nsPlus: plus,
        nsMinus: minus,
        nsValence: valence,
        qq: quarkQuark,
        qg: quarkGluon,
        gq: gluonQuark,
        gg: gluonGluon,
      });
    }
    splittingIndices.set(nf, orders);
  }
  const kernelsOfMatching = NNLO_MATCHING_KERNELS;
  const matchingIndices = matching
    ? group([
        kernelsOfMatching.nonSinglet,
        kernelsOfMatching.heavyFromQuark,
        kernelsOfMatching.heavyFromGluon,
        kernelsOfMatching.gluonFromQuark,
        kernelsOfMatching.gluonFromGluon,
      ])
    : undefined;
  return {
    kernels,
    groups,
    groupOf,
    kernelMatrices(matrixOf, n) {
      const splitting = new Map<number, SplittingMatrices[]>();
      let matchingMatrices: MatchingMatrices | undefined;
      return {
        splitting(nf) {
          const known = splitting.get(nf);
          if (known !== undefined) return known;
          const indices = splittingIndices.get(nf);
          if (indices === undefined) {
            throw new RangeError(`no splitting functions of ${nf} flavours were planned`);
          }
          const matrices = indices.map((index) => ({
            nsPlus: matrixOf(index.nsPlus),
            nsMinus: matrixOf(index.nsMinus),
            nsValence: matrixOf(index.nsValence),
            singlet: stackBlocks(
              [matrixOf(index.qq), matrixOf(index.qg), matrixOf(index.gq), matrixOf(index.gg)],
              n,
            ),
          }));
          splitting.set(nf, matrices);
          return matrices;
        },
        matching() {
          if (matchingMatrices !== undefined) return matchingMatrices;
          if (matchingIndices === undefined) {
            throw new RangeError('the NNLO matching was not planned');
          }
          const [nonSingletIndex, quarkIndex, gluonIndex, gluonFromQuark, gluonFromGluon] =
            matchingIndices;
          const nonSinglet = matrixOf(nonSingletIndex);
          const heavyFromQuark = matrixOf(quarkIndex);
          const heavyFromGluon = matrixOf(gluonIndex);
          const quarkToQuark = nonSinglet.map((value, index) => value + heavyFromQuark[index]);
          const singlet = stackBlocks(
            [quarkToQuark, heavyFromGluon, matrixOf(gluonFromQuark), matrixOf(gluonFromGluon)],
            n,
          );
          const heavy = new Float64Array(2 * n * n);
          for (let i = 0; i < n; i++) {
            heavy.set(heavyFromQuark.subarray(i * n, (i + 1) * n), i * 2 * n);
            heavy.set(heavyFromGluon.subarray(i * n, (i + 1) * n), i * 2 * n + n);
          }
          matchingMatrices = { nonSinglet, singlet, heavy };
          return matchingMatrices;
        },
      };
    },
  };
}

/**
 * A plan's kernel matrices computed on this thread, a group of convolutions when one of its
 * matrices is first asked for.
 */
export function localKernelMatrices(
  plan: KernelMatrixPlan,
  basis: LogLagrangeBasis,
): KernelMatrices {
  const matrices = new Map<number, Float64Array>();
  return plan.kernelMatrices((index) => {
    const known = matrices.get(index);
    if (known !== undefined) return known;
    const members = plan.groups[plan.groupOf[index]];
    const computed = convolutionMatrices(
      members.map((member) => plan.kernels[member]),
      basis,
    );
    members.forEach((member, m) => matrices.set(member, computed[m]));
    return computed[members.indexOf(index)];
  }, basis.xGrid.length);
}
