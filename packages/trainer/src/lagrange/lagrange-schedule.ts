import { InvalidArgumentError } from '@partonfit/core';

/** Epochs between two updates of a Lagrange multiplier (upstream `PUSH_POSITIVITY_EACH`). */
export const LAGRANGE_UPDATE_EVERY = 100;

/** How a positivity or integrability multiplier grows: λ ← λ · multiplier every 100 epochs. */
export interface LagrangeSchedule {
  /** λ at the start of the fit. */
  readonly initial: number;
  /** Factor applied every {@link LAGRANGE_UPDATE_EVERY} epochs. */
  readonly multiplier: number;
}

/** The runcard's settings for one set's multiplier. */
export interface LagrangeSettings {
  /** `parameters.positivity.initial` (or `integrability.initial`), if given. */
  readonly initial?: number | undefined;
  /** `parameters.positivity.multiplier` (or `integrability.multiplier`), if given. */
  readonly multiplier?: number | undefined;
  /** The set's `maxlambda`: the value reached at the end of the fit when one setting is left out. */
  readonly maxLambda: number;
  /** `parameters.epochs`. */
  readonly epochs: number;
}

/**
 * Upstream n3fit's multiplier schedule, with S = floor(epochs / 100) updates in a fit:
 * without `multiplier`, it is (maxλ / initial)^(1/S) with `initial` defaulting to 1, so that λ
 * reaches maxλ at the end; with `multiplier` but no `initial`, initial = maxλ / multiplier^S;
 * with both, `maxlambda` plays no role.
 *
 * @throws InvalidArgumentError - for non-positive settings
 */
export function lagrangeSchedule(settings: LagrangeSettings): LagrangeSchedule {
  const { maxLambda, epochs } = settings;
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined && !(typeof value === 'number' && value > 0)) {
      throw new InvalidArgumentError({
        argument: name,
        problem: `expected a positive number, got ${String(value)}`,
      });
    }
  }
  const updates = Math.max(Math.floor(epochs / LAGRANGE_UPDATE_EVERY), 1);
  if (settings.multiplier === undefined) {
    const initial = settings.initial ?? 1;
    return { initial, multiplier: (maxLambda / initial) ** (1 / updates) };
  }
  return {
    initial: settings.initial ?? maxLambda / settings.multiplier ** updates,
    multiplier: settings.multiplier,
  };
}

/** λ during epoch `epoch` (0-based): initial · multiplier^floor(epoch / 100). */
export function lagrangeMultiplierAt(schedule: LagrangeSchedule, epoch: number): number {
  return schedule.initial * schedule.multiplier ** Math.floor(epoch / LAGRANGE_UPDATE_EVERY);
}
