import { InvalidArgumentError } from '@partonfit/core';

/**
 * Heavy-quark masses and matching thresholds of a theory, which decide which heavy quarks an
 * exportgrid keeps at Q0. Every field defaults to NNPDF theory 200 (NNPDF4.0 NNLO), whose values
 * the theory-card keys in brackets name.
 */
export interface HeavyQuarkSettings {
  /** Charm mass in GeV (`mc`), default 1.51. */
  readonly charmMass?: number;
  /** Bottom mass in GeV (`mb`), default 4.92. */
  readonly bottomMass?: number;
  /** Top mass in GeV (`mt`), default 172.5. */
  readonly topMass?: number;
  /** Charm matching scale over the charm mass (`kcThr`), default 1. */
  readonly charmThresholdRatio?: number;
  /** Bottom matching scale over the bottom mass (`kbThr`), default 1. */
  readonly bottomThresholdRatio?: number;
  /** Top matching scale over the top mass (`ktThr`), default 1. */
  readonly topThresholdRatio?: number;
  /** Whether charm is fitted (intrinsic charm, `IC: 1`), default true as in theory 200. */
  readonly intrinsicCharm?: boolean;
}

/** Theory 200's heavy-quark settings, the defaults of {@link HeavyQuarkSettings}. */
export const THEORY_200_HEAVY_QUARKS: Required<HeavyQuarkSettings> = {
  charmMass: 1.51,
  bottomMass: 4.92,
  topMass: 172.5,
  charmThresholdRatio: 1,
  bottomThresholdRatio: 1,
  topThresholdRatio: 1,
  intrinsicCharm: true,
};

function positive(value: number, argument: string): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected a positive finite number, got ${value}`,
    });
  }
  return value;
}

/**
 * The number of active quark flavours at the fit scale Q0, by upstream n3fit's rule (`storefit`
 * in `n3fit/src/n3fit/io/writer.py`): start from 3 (u, d, s) and add c, then b, then t, stopping
 * at the first whose matching scale m·k is above Q0 (a quark counts when Q0 ≥ m·k); with
 * intrinsic charm at least 4. With theory 200 and Q0 = 1.65 GeV this is 4.
 *
 * @param q0 - the fit scale in GeV
 * @param settings - masses and thresholds, defaults from {@link THEORY_200_HEAVY_QUARKS}
 * @returns 3, 4, 5 or 6
 * @throws InvalidArgumentError for a non-positive or non-finite Q0, mass or threshold ratio
 */
export function activeFlavourNumber(q0: number, settings: HeavyQuarkSettings = {}): number {
  positive(q0, 'q0');
  const merged = { ...THEORY_200_HEAVY_QUARKS, ...settings };
  const thresholds = [
    positive(merged.charmMass, 'charmMass') *
      positive(merged.charmThresholdRatio, 'charmThresholdRatio'),
    positive(merged.bottomMass, 'bottomMass') *
      positive(merged.bottomThresholdRatio, 'bottomThresholdRatio'),
    positive(merged.topMass, 'topMass') * positive(merged.topThresholdRatio, 'topThresholdRatio'),
  ];
  let active = 3;
  for (const threshold of thresholds) {
    if (q0 < threshold) break;
    active++;
  }
  return merged.intrinsicCharm ? Math.max(4, active) : active;
}
