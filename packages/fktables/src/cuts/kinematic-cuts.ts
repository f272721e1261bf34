import { InvalidArgumentError } from '@partonfit/core';
import type { CommonData } from '../commondata/index.js';

/** The kinematic cuts of upstream validphys's generic DIS rule (runcard `datacuts`). */
export interface DisCuts {
  /** Points with Q² ≤ q2min (GeV²) are cut. */
  readonly q2min: number;
  /** Points with W² ≤ w2min (GeV²) are cut. */
  readonly w2min: number;
  /**
   * Added to Q²(1 − x)/x to make W². Upstream NNPDF leaves the target mass out (0, the
   * default), which is what the published point counts follow; m_p² = 0.880 GeV² gives the
   * physical invariant mass squared.
   */
  readonly targetMassSquared?: number;
}

/** NNPDF4.0's defaults (validphys `cuts/defaults.yaml`): Q² > 3.49 GeV², W² > 12.5 GeV². */
export const DEFAULT_DIS_CUTS: DisCuts = { q2min: 3.49, w2min: 12.5 };

/**
 * Which points pass upstream's generic DIS cut `Q2 > q2min and W2 > w2min` with
 * W² = Q²(1 − x)/x (+ `targetMassSquared`), both inequalities strict.
 *
 * The cut applies to data whose process type starts with `DIS` (validphys's `DIS_ALL` rule)
 * and reads the kinematic variables named `x` and `Q2`. Every other process keeps all points, as
 * do positivity and integrability sets: their current process types (`POS_DIS`, `POS_XPDF`,
 * `INTEG`, …) never match the rule, and before May 2024 validphys applied no cuts to them at all
 * (their legacy process types such as `DIS_XDQ` would otherwise match). Dataset-specific rules of
 * validphys's `filters.yaml` (e.g. the pT window of CMS Z pT) are not applied here.
 *
 * @returns (data) 1 = keep, 0 = cut
 * @throws InvalidArgumentError - if a DIS dataset has no `x` or `Q2` variable, or the cuts are
 *   not finite numbers
 */
export function kinematicCutMask(
  commonData: CommonData,
  cuts: DisCuts = DEFAULT_DIS_CUTS,
): Uint8Array {
  const { q2min, w2min, targetMassSquared = 0 } = cuts;
  for (const [name, value] of [
    ['q2min', q2min],
    ['w2min', w2min],
    ['targetMassSquared', targetMassSquared],
  ] as const) {
    if (!Number.isFinite(value)) {
      throw new InvalidArgumentError({
        argument: `cuts.${name}`,
        problem: `expected a finite number, got ${value}`,
      });
    }
  }
  const mask = new Uint8Array(commonData.ndata).fill(1);
  if (commonData.kind !== 'data' || !commonData.processType.startsWith('DIS')) return mask;
  const { variables, values } = commonData.kinematics;
  const xColumn = variables.indexOf('x');
  const q2Column = variables.indexOf('Q2');
  if (xColumn < 0 || q2Column < 0) {
    throw new InvalidArgumentError({
      argument: 'commonData',
      problem: `${commonData.name} is DIS (${commonData.processType}) but its kinematic variables are ${variables.join(', ')}, not x and Q2`,
    });
  }
  for (let i = 0; i < commonData.ndata; i++) {
    const x = values[3 * i + xColumn];
    const q2 = values[3 * i + q2Column];
    const w2 = (q2 * (1 - x)) / x + targetMassSquared;
    mask[i] = q2 > q2min && w2 > w2min ? 1 : 0;
  }
  return mask;
}
