import { deriveNamedSeed, SeededRandom } from '@partonfit/core';
import { randomPoints, tpePoints, type SpacePoint, type SpaceValue } from '../sampler/index.js';
import type { FinishedTrial } from '../tries/trial-document.js';

/** The seed of the scan's sampler (n3fit's `HYPEROPT_SEED`). */
export const SCAN_SEED = 42;

/** How a scan may choose its trials: hyperopt's TPE, or at random (a baseline). */
export const SAMPLERS = ['tpe', 'random'] as const;

/** One of {@link SAMPLERS}. */
export type SamplerName = (typeof SAMPLERS)[number];

/**
 * The points of batch b: drawn at random for the first batch (and always with `random`), by TPE
 * from the scan's finished trials for the others — each with its loss whatever its status, as
 * hyperopt reads `result.loss` (a trial failed at the threshold keeps its penalised loss, one
 * without a loss counts as infinitely bad). Batch b's draws use their own stream,
 * derived from {@link SCAN_SEED} and b, so a resumed scan suggests the same batch as an
 * uninterrupted one given the same finished trials.
 *
 * @param history - the finished trials, in trial-id order
 * @param count - the trials of the batch
 */
export function suggestBatch(
  space: SpaceValue,
  history: readonly FinishedTrial[],
  count: number,
  batch: number,
  sampler: SamplerName,
): SpacePoint[] {
  const random = new SeededRandom(deriveNamedSeed(SCAN_SEED, `batch ${batch}`));
  if (sampler === 'random' || batch === 0) return randomPoints(space, count, random);
  const scored = history.map((trial) => ({ point: trial.point, loss: trial.loss }));
  return tpePoints(space, scored, count, random, { startupTrials: Math.min(count, 20) });
}
