import { InvalidArgumentError } from '@partonfit/core';

/** Upstream's default χ² veto: more than 4 standard deviations above the mean. */
export const NSIGMA_DISCARD_CHI2 = 4;
/** Upstream's default arc-length veto: more than 4 standard deviations above the mean. */
export const NSIGMA_DISCARD_ARCLENGTH = 4;
/** Upstream's default integrability veto: an integrability number above 0.5. */
export const INTEGRABILITY_THRESHOLD = 0.5;

/**
 * The iterations of the distribution vetoes after which {@link determineVetoes} stops even if the
 * number of passing replicas still changes (upstream loops until it does not; a safeguard).
 */
const MAX_ITERATIONS = 1000;

/** What postfit knows of one replica (from its `<fit>.json`). */
export interface ReplicaFitInfo {
  /** χ² per point against the experimental data (`chi2`); NaN when the JSON has `null`. */
  readonly chi2: number;
  /** Whether the replica passed positivity (`pos_state` is `POS_PASS`). */
  readonly positive: boolean;
  /** `arc_lengths`: Σ, g, V, V3, V8. */
  readonly arcLengths: readonly number[];
  /** `integrability`: V, T3, V3, T8, V8. */
  readonly integrability: readonly number[];
}

/** The thresholds of the vetoes. */
export interface VetoThresholds {
  /** Standard deviations above the mean beyond which a χ² is vetoed (default 4). */
  readonly chi2: number;
  /** Standard deviations above the mean beyond which an arc length is vetoed (default 4). */
  readonly arcLength: number;
  /** The largest integrability number that passes (default 0.5). */
  readonly integrability: number;
}

/** Upstream's default thresholds. */
export const DEFAULT_VETO_THRESHOLDS: VetoThresholds = {
  chi2: NSIGMA_DISCARD_CHI2,
  arcLength: NSIGMA_DISCARD_ARCLENGTH,
  integrability: INTEGRABILITY_THRESHOLD,
};

function count(mask: readonly boolean[]): number {
  return mask.filter(Boolean).length;
}

/**
 * Which values pass `value − mean ≤ nσ · std`, mean and (population) standard deviation taken
 * over the values that passed so far (`prior`). One-sided, as upstream: values far below the mean
 * pass. With at most one prior value, the prior mask itself. A non-finite value never passes and
 * does not enter the mean (upstream's mean would become NaN and veto every replica).
 */
function distributionVeto(
  values: readonly number[],
  prior: readonly boolean[],
  nSigma: number,
): boolean[] {
  if (count(prior) <= 1) return [...prior];
  const passing = values.filter((value, i) => prior[i] && Number.isFinite(value));
  const mean = passing.reduce((sum, value) => sum + value, 0) / passing.length;
  const variance = passing.reduce((sum, value) => sum + (value - mean) ** 2, 0) / passing.length;
  const limit = nSigma * Math.sqrt(variance);
  return values.map((value) => Number.isFinite(value) && value - mean <= limit);
}

/**
 * Upstream's replica selection (`validphys/fitveto.py::determine_vetoes`), as masks over the
 * replicas (true: passes), in upstream's order:
 *
 * - `Positivity`: `pos_state` is `POS_PASS`;
 * - `IntegNumber_<i>`: integrability number i ≤ the threshold (0.5), independently of the others;
 * - `ChiSquared` and `ArcLength_<i>`: not more than nσ (4) above the mean of the replicas that
 *   pass so far — starting from those that pass positivity, the distribution vetoes are redone
 *   with the replicas passing all vetoes until their number stops changing;
 * - `Total`: the replicas that pass, i.e. the passing set before the last, unchanged, round.
 *
 * @param infos - one per replica, all with the same number of arc lengths and of integrability
 *   numbers
 * @returns the masks by veto name, `Total` last
 * @throws InvalidArgumentError for no replicas, or replicas with different numbers of arc
 *   lengths or integrability numbers
 */
export function determineVetoes(
  infos: readonly ReplicaFitInfo[],
  thresholds: VetoThresholds = DEFAULT_VETO_THRESHOLDS,
): Map<string, boolean[]> {
  if (infos.length === 0) {
    throw new InvalidArgumentError({ argument: 'infos', problem: 'no replicas to select from' });
  }
  const first = infos[0];
  infos.forEach((info, r) => {
    if (
      info.arcLengths.length !== first.arcLengths.length ||
      info.integrability.length !== first.integrability.length
    ) {
      throw new InvalidArgumentError({
        argument: `infos[${r}]`,
        problem: `${info.arcLengths.length} arc lengths and ${info.integrability.length} integrability numbers, but the first replica has ${first.arcLengths.length} and ${first.integrability.length}`,
      });
    }
  });
  const distributions = new Map<string, { values: number[]; nSigma: number }>([
    ['ChiSquared', { values: infos.map((info) => info.chi2), nSigma: thresholds.chi2 }],
    ...first.arcLengths.map(
      (_, i) =>
        [
          `ArcLength_${i}`,
          { values: infos.map((info) => info.arcLengths[i]), nSigma: thresholds.arcLength },
        ] as const,
    ),
  ]);
  const vetoes = new Map<string, boolean[]>([['Positivity', infos.map((info) => info.positive)]]);
  first.integrability.forEach((_, i) => {
    vetoes.set(
      `IntegNumber_${i}`,
      infos.map((info) => info.integrability[i] <= thresholds.integrability),
    );
  });
  let total = [...(vetoes.get('Positivity') ?? [])];
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    for (const [name, { values, nSigma }] of distributions) {
      vetoes.set(name, distributionVeto(values, total, nSigma));
    }
    const masks = [...vetoes.values()];
    const next = infos.map((_, r) => masks.every((mask) => mask[r]));
    if (count(next) === count(total)) break;
    total = next;
  }
  vetoes.set('Total', total);
  return vetoes;
}
