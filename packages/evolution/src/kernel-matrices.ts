import type { Kernel } from './kernels/kernel.js';
import { NNLO_MATCHING_KERNELS } from './kernels/matching-kernels.js';
import { splittingKernels } from './kernels/splitting-functions.js';
import { convolutionMatrix } from './convolution.js';
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

/**
 * The splitting-function matrices P^(k), k = 0 … order, for nf active flavours.
 *
 * @param order - the highest order (0 LO, 1 NLO, 2 NNLO)
 * @param nf - active flavours
 * @param basis - the interpolation basis
 * @returns one {@link SplittingMatrices} per order k
 */
export function splittingMatrices(
  order: PerturbativeOrder,
  nf: number,
  basis: LogLagrangeBasis,
): SplittingMatrices[] {
  const n = basis.xGrid.length;
  const result: SplittingMatrices[] = [];
  for (let k = 0; k <= order; k++) {
    const kernels = splittingKernels(k as PerturbativeOrder, nf);
    const matrix = (kernel: Kernel) => convolutionMatrix(kernel, basis);
    const nsPlus = matrix(kernels.nsPlus);
    const nsMinus = kernels.nsMinus === kernels.nsPlus ? nsPlus : matrix(kernels.nsMinus);
    const nsValence = kernels.nsValence === kernels.nsMinus ? nsMinus : matrix(kernels.nsValence);
    const qq = kernels.qq === kernels.nsPlus ? nsPlus : matrix(kernels.qq);
    const singlet = stackBlocks(
      [qq, matrix(kernels.qg), matrix(kernels.gq), matrix(kernels.gg)],
      n,
    );
    result.push({ nsPlus, nsMinus, nsValence, singlet });
  }
  return result;
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

/** The NNLO matching matrices at μ = m on an interpolation basis. */
export function matchingMatrices(basis: LogLagrangeBasis): MatchingMatrices {
  const n = basis.xGrid.length;
  const kernels = NNLO_MATCHING_KERNELS;
  const nonSinglet = convolutionMatrix(kernels.nonSinglet, basis);
  const heavyFromQuark = convolutionMatrix(kernels.heavyFromQuark, basis);
  const heavyFromGluon = convolutionMatrix(kernels.heavyFromGluon, basis);
  const quarkToQuark = nonSinglet.map((value, index) => value + heavyFromQuark[index]);
  const singlet = stackBlocks(
    [
      quarkToQuark,
      heavyFromGluon,
      convolutionMatrix(kernels.gluonFromQuark, basis),
      convolutionMatrix(kernels.gluonFromGluon, basis),
    ],
    n,
  );
  const heavy = new Float64Array(2 * n * n);
  for (let i = 0; i < n; i++) {
    heavy.set(heavyFromQuark.subarray(i * n, (i + 1) * n), i * 2 * n);
    heavy.set(heavyFromGluon.subarray(i * n, (i + 1) * n), i * 2 * n + n);
  }
  return { nonSinglet, singlet, heavy };
}
