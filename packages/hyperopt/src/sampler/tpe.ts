import { InvalidArgumentError, positiveInteger, type SeededRandom } from '@partonfit/core';
import {
  adaptiveParzenNormal,
  categoricalPosterior,
  sampleIndex,
  sampleTruncatedMixture,
  truncatedMixtureLogDensity,
  truncatedMixtureLogMass,
  truncateMixture,
} from './parzen.js';
import { fromLog, nonNegativeInteger, quantize, randomPoints } from './random-search.js';
import {
  buildPoint,
  labelDefinitions,
  type SpaceNode,
  type SpacePoint,
  type SpaceValue,
} from './space.js';

/**
 * A finished trial: its point and its loss. A trial without a loss (NaN or infinite: it failed)
 * counts as hyperopt counts it: with an infinite loss, among the bad trials and towards the
 * startup trials.
 */
export interface ScoredPoint {
  readonly point: SpacePoint;
  readonly loss: number;
}

/** The settings of {@link tpePoints}; the defaults are hyperopt's. */
export interface TpeOptions {
  /** Random points until this many trials are finished (hyperopt's `n_startup_jobs`). Default 20. */
  readonly startupTrials?: number;
  /** The good trials are the best ⌈gamma·√n⌉ of the n finished ones. Default 0.25. */
  readonly gamma?: number;
  /**
   * Draws from l(x) per label, of which the one with the highest l(x)/g(x) is kept (hyperopt's
   * `n_EI_candidates`). Default 24.
   */
  readonly candidates?: number;
  /** The weight of the prior in every density estimate (hyperopt's `prior_weight`). Default 1. */
  readonly priorWeight?: number;
  /**
   * Linear forgetting: past this many observations the oldest get linearly smaller weights; also
   * the most trials counted as good (hyperopt's `DEFAULT_LF` and `gamma_cap`). Default 25.
   */
  readonly linearForgetting?: number;
}

/** {@link TpeOptions} with the defaults filled in, checked. */
export interface TpeSettings {
  readonly startupTrials: number;
  readonly gamma: number;
  readonly candidates: number;
  readonly priorWeight: number;
  readonly linearForgetting: number;
}

/** hyperopt 0.2.x's defaults (`tpe.py`: `_default_*` and `DEFAULT_LF`). */
export const TPE_DEFAULTS: TpeSettings = Object.freeze({
  startupTrials: 20,
  gamma: 0.25,
  candidates: 24,
  priorWeight: 1,
  linearForgetting: 25,
});

/** The options with defaults, each checked. */
export function tpeSettings(options: TpeOptions = {}): TpeSettings {
  const settings = { ...TPE_DEFAULTS, ...definedEntries(options) };
  nonNegativeInteger(settings.startupTrials, 'startupTrials');
  positiveInteger(settings.candidates, 'candidates');
  positiveInteger(settings.linearForgetting, 'linearForgetting');
  for (const argument of ['gamma', 'priorWeight'] as const) {
    const value = settings[argument];
    if (!Number.isFinite(value) || !(value > 0)) {
      throw new InvalidArgumentError({
        argument,
        problem: `expected a finite number > 0, got ${value}`,
      });
    }
  }
  return settings;
}

function definedEntries(options: TpeOptions): Partial<TpeSettings> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/**
 * Which trials are good (l(x)) rather than bad (g(x)), as hyperopt's `ap_split_trials` splits
 * them: the n_below = min(⌈gamma·√n⌉, linearForgetting) lowest losses of the n trials, ties
 * broken by order.
 *
 * @param losses - the losses, in trial order (infinite for failed trials)
 * @returns for each trial, whether it is among the good
 */
export function splitGood(
  losses: readonly number[],
  gamma: number,
  linearForgetting: number,
): boolean[] {
  const goodCount = Math.min(Math.ceil(gamma * Math.sqrt(losses.length)), linearForgetting);
  const order = losses.map((_, index) => index).sort((a, b) => losses[a] - losses[b] || a - b);
  const good = new Array<boolean>(losses.length).fill(false);
  for (const index of order.slice(0, goodCount)) good[index] = true;
  return good;
}

/** The best of a label's candidate draws, given the good and bad observations. */
type LabelSuggester = (random: SeededRandom) => number;

/**
 * `count` suggestions of hyperopt's Tree-structured Parzen Estimator (`tpe.suggest`, 0.2.x),
 * all from the same posterior: independent draws, as for `count` new trial ids at once (a batch
 * of trials trained together).
 *
 * While `history` holds fewer than `startupTrials` trials, the suggestions are
 * {@link randomPoints}. Then the trials (a failed one with an infinite loss, as hyperopt gives
 * trials without a loss) are split into the good ones (the
 * ⌈gamma·√n⌉ lowest losses, at most `linearForgetting`) and the rest, and each label has two
 * density estimates from the trials where it is active: l(x) from the good, g(x) from the rest
 * (adaptive Parzen estimators truncated to the label's range for numeric labels, smoothed
 * counts for a choice; older trials forgotten linearly). Walking the space from the root, each
 * active label takes the best, by log l(x) − log g(x), of `candidates` draws from l(x) — so a
 * suggestion holds exactly the labels active given its choices.
 *
 * Deterministic given the state of `random`.
 *
 * @param history - the finished trials, oldest first (linear forgetting weighs the oldest least)
 * @param count - how many points to suggest
 * @throws InvalidArgumentError naming the label for an invalid space or a history point whose
 *   value for a label of the space is not a number it could take; naming the option for invalid
 *   options
 *
 * @example
 * ```ts
 * import { SeededRandom } from '@partonfit/core';
 * import { tpePoints, uniform, type ScoredPoint } from '@partonfit/hyperopt';
 *
 * const space = { x: uniform('x', -5, 5) };
 * const random = new SeededRandom(7);
 * const history: ScoredPoint[] = [];
 * for (let trial = 0; trial < 40; trial++) {
 *   const [point] = tpePoints(space, history, 1, random);
 *   history.push({ point, loss: (point['x'] - 1) ** 2 });
 * }
 * const best = Math.min(...history.map((trial) => trial.loss));
 * console.log(best < 0.1); // true
 * ```
 */
export function tpePoints(
  space: SpaceValue,
  history: readonly ScoredPoint[],
  count: number,
  random: SeededRandom,
  options: TpeOptions = {},
): SpacePoint[] {
  const settings = tpeSettings(options);
  nonNegativeInteger(count, 'count');
  const definitions = labelDefinitions(space);
  checkHistory(definitions, history);
  // hyperopt: `float('inf') if loss is None`; a NaN loss sorts last as well
  const finished = history.map((trial) =>
    Number.isFinite(trial.loss) ? trial : { ...trial, loss: Number.POSITIVE_INFINITY },
  );
  if (finished.length < settings.startupTrials) return randomPoints(space, count, random);

  const good = splitGood(
    finished.map((trial) => trial.loss),
    settings.gamma,
    settings.linearForgetting,
  );
  const suggesters = new Map<string, LabelSuggester>();
  const suggest = (node: SpaceNode): number => {
    let suggester = suggesters.get(node.label);
    if (suggester === undefined) {
      const below: number[] = [];
      const above: number[] = [];
      finished.forEach((trial, index) => {
        const value = observedValue(trial.point, node.label);
        if (value !== undefined) (good[index] ? below : above).push(value);
      });
      suggester = labelSuggester(node, below, above, settings);
      suggesters.set(node.label, suggester);
    }
    return suggester(random);
  };
  return Array.from({ length: count }, () => buildPoint(space, suggest));
}

function observedValue(point: SpacePoint, label: string): number | undefined {
  return Object.hasOwn(point, label) ? point[label] : undefined;
}

/** Every history value of a label of the space must be one the label can take. */
function checkHistory(
  definitions: ReadonlyMap<string, SpaceNode>,
  history: readonly ScoredPoint[],
): void {
  history.forEach((trial, index) => {
    if (typeof (trial.loss as unknown) !== 'number') {
      throw new InvalidArgumentError({
        argument: `history[${index}].loss`,
        problem: `expected a number, got ${String(trial.loss)}`,
      });
    }
    for (const [label, node] of definitions) {
      const value = observedValue(trial.point, label);
      if (value === undefined) continue;
      const problem = valueProblem(node, value);
      if (problem !== undefined) {
        throw new InvalidArgumentError({
          argument: label,
          problem: `history[${index}] has ${String(value)}, ${problem}`,
        });
      }
    }
  });
}

function valueProblem(node: SpaceNode, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'expected a finite number';
  if (
    node.kind === 'choice' &&
    !(Number.isInteger(value) && value >= 0 && value < node.options.length)
  ) {
    return `expected a choice index between 0 and ${node.options.length - 1}`;
  }
  if (node.kind === 'loguniform' && !(value > 0)) return 'expected a value > 0 for a loguniform';
  return undefined;
}

/** A label's posterior pair (l from the good trials, g from the rest) and its best-of-N draw. */
function labelSuggester(
  node: SpaceNode,
  below: readonly number[],
  above: readonly number[],
  settings: TpeSettings,
): LabelSuggester {
  const { candidates, priorWeight, linearForgetting } = settings;
  if (node.kind === 'choice') {
    const options = node.options.length;
    const good = categoricalPosterior(below, options, priorWeight, linearForgetting);
    const bad = categoricalPosterior(above, options, priorWeight, linearForgetting);
    return (random) =>
      bestOf(
        candidates,
        () => sampleIndex(good, random),
        (index) => Math.log(good[index]) - Math.log(bad[index]),
      );
  }

  // Numeric labels live on a line where the prior is uniform: the log of a loguniform's values.
  const logScale = node.kind === 'loguniform';
  const low = logScale ? Math.log(node.low) : node.low;
  const high = logScale ? Math.log(node.high) : node.high;
  const toLine = (value: number) => (logScale ? Math.log(value) : value);
  const priorMu = 0.5 * (low + high);
  const priorSigma = high - low;
  const estimate = (observations: readonly number[]) =>
    truncateMixture(
      adaptiveParzenNormal(
        observations.map(toLine),
        priorWeight,
        priorMu,
        priorSigma,
        linearForgetting,
      ),
      low,
      high,
    );
  const good = estimate(below);
  const bad = estimate(above);
  const draw = (random: SeededRandom) => sampleTruncatedMixture(good, random);

  if (node.kind === 'quniform') {
    const { q } = node;
    // The score of a quantised value is the mass of its bin, [value − q/2, value + q/2] ∩ range.
    const binScore = (value: number) => {
      const from = Math.max(value - q / 2, low);
      const to = Math.min(value + q / 2, high);
      return truncatedMixtureLogMass(good, from, to) - truncatedMixtureLogMass(bad, from, to);
    };
    return (random) => bestOf(candidates, () => quantize(draw(random), q), binScore);
  }
  const densityScore = (x: number) =>
    truncatedMixtureLogDensity(good, x) - truncatedMixtureLogDensity(bad, x);
  return (random) => {
    const best = bestOf(candidates, () => draw(random), densityScore);
    return logScale ? fromLog(best, node.low, node.high) : best;
  };
}

/**
 * The candidate with the highest score, the first of equals (numpy's `argmax`); a NaN score
 * (a bin whose mass underflows in both estimates) counts as −∞, where numpy would pick it.
 */
function bestOf(
  candidates: number,
  draw: () => number,
  score: (candidate: number) => number,
): number {
  let best = draw();
  let bestScore = score(best);
  if (Number.isNaN(bestScore)) bestScore = Number.NEGATIVE_INFINITY;
  for (let i = 1; i < candidates; i++) {
    const candidate = draw();
    const candidateScore = score(candidate);
    if (candidateScore > bestScore) {
      best = candidate;
      bestScore = candidateScore;
    }
  }
  return best;
}
