import { InvalidArgumentError } from '@partonfit/core';
import {
  applyEvolutionOperator,
  cachedEvolutionOperator,
  lhapdfQGrid,
  type EvolutionOperator,
  type EvolutionOptions,
  type TheoryCard,
  type ThresholdKnots,
} from '@partonfit/evolution';
import { replicaMean, type PdfReplicas } from './pdf-replicas.js';

/**
 * A scale within this fraction of the fit's Q0 is Q0: the exportgrids are drawn as they are
 * (`--q 1.4142` is the embedded fit's Q0 = √2 GeV).
 */
export const SAME_SCALE_TOLERANCE = 1e-4;

/** How a report evolves PDFs from the fit's Q0 to the other scales it draws. */
export interface PdfEvolution {
  /** The theory card the fit is evolved with; its Q0 must be the fit's. */
  readonly card: TheoryCard;
  /**
   * What a scale exactly on a heavy-quark threshold holds (default `'evolven3fit'`, as
   * `partonfit evolve` and NNPDF's LHAPDF sets).
   */
  readonly thresholdKnots?: ThresholdKnots;
  /**
   * The evolution operator for `options` (the fit's x grid, the scales to reach); by default
   * `cachedEvolutionOperator(card, options)`: read from the user's cache, or built and stored
   * there.
   */
  readonly operator?: (options: EvolutionOptions) => Promise<EvolutionOperator>;
}

/** Whether `q` (GeV) is the scale `q0` to {@link SAME_SCALE_TOLERANCE}. */
export function isSameScale(q: number, q0: number): boolean {
  return Math.abs(q / q0 - 1) <= SAME_SCALE_TOLERANCE;
}

/**
 * The largest scale a report evolves to: the last knot of the Q grid `partonfit evolve` writes
 * for the theory ({@link lhapdfQGrid}, 10⁵ GeV).
 */
export function largestEvolvedScale(card: TheoryCard): number {
  const grid = lhapdfQGrid(card);
  return grid[grid.length - 1];
}

/**
 * Checks the scales a report draws the PDFs at: positive numbers; each one the fit's own Q0 (its
 * exportgrids' scale, {@link isSameScale}), which needs no theory card, or, evolved with a theory
 * card of the fit's Q0, between that Q0 and {@link largestEvolvedScale}.
 *
 * @param scales - the scales Q in GeV
 * @param fitQ0 - the fit's Q0 in GeV (its exportgrids' scale)
 * @param card - the theory card to evolve with, if any
 * @param argument - the name errors give the scales (`scales`, or a command-line option)
 * @throws InvalidArgumentError naming `argument` and the first scale that cannot be drawn, and why
 */
export function checkReportScales(
  scales: readonly number[],
  fitQ0: number,
  card: TheoryCard | undefined,
  argument = 'scales',
): void {
  const fail = (problem: string) => new InvalidArgumentError({ argument, problem });
  if (scales.length === 0) throw fail('expected at least one scale Q in GeV');
  for (const q of scales) {
    if (!(Number.isFinite(q) && q > 0)) throw fail(`expected scales Q > 0 in GeV, got ${q}`);
    if (isSameScale(q, fitQ0)) continue;
    if (card === undefined) {
      throw fail(
        `Q = ${q} GeV is not the fit's Q0 = ${fitQ0} GeV, and there is no theory card to evolve the fit with`,
      );
    }
    if (!isSameScale(card.q0, fitQ0)) {
      throw fail(
        `Q = ${q} GeV needs the fit evolved from its Q0 = ${fitQ0} GeV (its exportgrids' q20), but ${card.file} has Q0 = ${card.q0} GeV`,
      );
    }
    if (q < fitQ0) {
      throw fail(`Q = ${q} GeV is below the fit's Q0 = ${fitQ0} GeV: PDFs are evolved up from Q0`);
    }
    const largest = largestEvolvedScale(card);
    if (q > largest) {
      throw fail(
        `Q = ${q} GeV is above the evolution grid of ${card.file}, which ends at ${largest} GeV`,
      );
    }
  }
}

/** The options of the operator that evolves x·f on `xGrid` from Q0 to `scales`. */
export function evolutionOptions(
  evolution: PdfEvolution,
  xGrid: Float64Array,
  scales: readonly number[],
): EvolutionOptions {
  return { xGrid, qGrid: scales, thresholdKnots: evolution.thresholdKnots ?? 'evolven3fit' };
}

/** The operator of {@link evolutionOptions}: the evolution's own, or the cached one. */
export async function evolutionOperatorOf(
  evolution: PdfEvolution,
  options: EvolutionOptions,
): Promise<EvolutionOperator> {
  if (evolution.operator !== undefined) return evolution.operator(options);
  return (await cachedEvolutionOperator(evolution.card, options)).operator;
}

/**
 * A set at Q0 evolved to every scale of an operator, in one product for all its members: a fit's
 * replicas (the central value the mean of the evolved replicas, as at Q0), or a single PDF's
 * central member (a closure test's truth).
 *
 * @param pdf - the set at the operator's Q0, on its x grid
 * @param operator - from Q0 to the scales wanted
 * @param source - what the notes say the set was evolved with (a theory card's name)
 * @returns the set at each scale of `operator.qGrid`, in order
 * @throws InvalidArgumentError for a set at another Q0 than the operator's
 * @throws ShapeError for a set on another x grid than the operator's
 */
export function evolvePdfReplicas(
  pdf: PdfReplicas,
  operator: EvolutionOperator,
  source: string,
): PdfReplicas[] {
  if (!isSameScale(pdf.q, operator.q0)) {
    throw new InvalidArgumentError({
      argument: 'pdf',
      problem: `${pdf.label} is at Q = ${pdf.q} GeV, the operator evolves from Q0 = ${operator.q0} GeV`,
    });
  }
  const single = pdf.replicaCount === 0;
  const members = single ? 1 : pdf.replicaCount;
  const evolved = applyEvolutionOperator(operator, single ? pdf.central : pdf.replicas, members);
  const points = pdf.central.length;
  const scales = operator.qGrid.length;
  const member = (r: number, scale: number) =>
    evolved.subarray((r * scales + scale) * points, (r * scales + scale + 1) * points);
  return Array.from(operator.qGrid, (q, scale) => {
    const notes = [...pdf.notes, `evolved from Q0 = ${scaleText(pdf.q)} GeV with ${source}`];
    if (single) return { ...pdf, q, notes, central: Float64Array.from(member(0, scale)) };
    const replicas = new Float64Array(members * points);
    for (let r = 0; r < members; r++) replicas.set(member(r, scale), r * points);
    return { ...pdf, q, notes, central: replicaMean(replicas, members), replicas };
  });
}

/** A scale in GeV as figures and notes write it: 4 significant digits (1.414, 100, 1.65). */
export function scaleText(q: number): string {
  return String(Number(q.toPrecision(4)));
}
