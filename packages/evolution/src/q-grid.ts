import { InvalidArgumentError } from '@partonfit/core';
import type { TheoryCard } from './theory-card.js';
import { maxPdfFlavours, thresholdsOfTheory } from './thresholds.js';

/** Λ (GeV) of the ln ln(Q²/Λ²) spacing of NNPDF's LHAPDF Q grids. */
const GRID_LAMBDA = 0.25;

/** The settings of {@link lhapdfQGrid}. */
export interface QGridOptions {
  /** The largest scale (GeV); default 10⁵. */
  readonly qMax?: number;
  /** The number of Q knots, thresholds counted twice; default 50. */
  readonly points?: number;
}

/**
 * NNPDF's LHAPDF Q grid for a theory: from Q0 to qMax, one block per flavour-number region (each
 * threshold between them appears twice, ending one block and starting the next), the knots
 * evenly spaced in ln ln(Q²/Λ²) with Λ = 0.25 GeV inside each block, the intervals shared
 * between the blocks in proportion to their lengths in that variable. For theory 200 with the
 * defaults these are the 50 Q knots of NNPDF4.0's sets.
 *
 * @param card - the theory card: `Q0`, the thresholds up to `MaxNfPdf`
 * @param options - see {@link QGridOptions}
 * @returns the scales (q) in GeV, ready for {@link buildEvolutionOperator} and
 *   {@link writeEvolvedLhapdfSet}
 * @throws InvalidArgumentError for qMax ≤ Q0 or too few points for the blocks
 */
export function lhapdfQGrid(card: TheoryCard, options: QGridOptions = {}): number[] {
  const qMax = options.qMax ?? 1e5;
  const points = options.points ?? 50;
  if (!(qMax > card.q0)) {
    throw new InvalidArgumentError({
      argument: 'qMax',
      problem: `expected above Q0 = ${card.q0} GeV, got ${qMax}`,
    });
  }
  const inside = thresholdsOfTheory(card, maxPdfFlavours(card))
    .map(Math.sqrt)
    .filter((threshold) => threshold > card.q0 && threshold < qMax);
  const edges = [card.q0, ...inside, qMax];
  const blocks = edges.length - 1;
  const intervals = points - 1 - inside.length;
  if (!Number.isInteger(points) || intervals < 2 * blocks) {
    throw new InvalidArgumentError({
      argument: 'points',
      problem: `expected an integer of at least ${2 * blocks + inside.length + 1} for ${blocks} blocks, got ${points}`,
    });
  }
  const variable = (q: number) => Math.log(Math.log((q * q) / (GRID_LAMBDA * GRID_LAMBDA)));
  const lengths = edges.slice(1).map((edge, b) => variable(edge) - variable(edges[b]));
  const total = lengths.reduce((sum, length) => sum + length, 0);
  let left = intervals;
  const grid: number[] = [];
  lengths.forEach((length, b) => {
    const count =
      b === blocks - 1
        ? left
        : Math.max(
            2,
            Math.min(left - 2 * (blocks - 1 - b), Math.round((intervals * length) / total)),
          );
    left -= count;
    const start = variable(edges[b]);
    for (let k = 0; k <= count; k++) {
      const t = start + (length * k) / count;
      grid.push(
        k === 0 ? edges[b] : k === count ? edges[b + 1] : GRID_LAMBDA * Math.exp(Math.exp(t) / 2),
      );
    }
  });
  return grid;
}
