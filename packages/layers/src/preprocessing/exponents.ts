import { InvalidArgumentError, SeededRandom } from '@partonfit/core';

/**
 * One fitted flavour's preprocessing settings, as in the runcard's `fitting.basis` (core's
 * `BasisFlavourSettings` fits this shape).
 */
export interface PreprocessingFlavour {
  /** The flavour's runcard name, e.g. `sng`, `g`, `v3`. */
  readonly fl: string;
  /** The range [low, high] of the small-x exponent α. */
  readonly smallx: readonly [number, number];
  /** The range [low, high] of the large-x exponent β; required unless large-x is off. */
  readonly largex?: readonly [number, number] | undefined;
  /** Whether α and β are trained (then clipped back into their ranges); default true. */
  readonly trainable?: boolean | undefined;
}

/** One replica's initial exponents, `(flavours)` each. */
export interface InitialExponents {
  readonly alpha: Float64Array;
  /** All zeros when large-x preprocessing is off. */
  readonly beta: Float64Array;
}

/**
 * The initial α and β of one replica, drawn from `SeededRandom(seed)` in this fixed order: for
 * each flavour in `flavours` order, first α ~ U(smallx), then one more draw for β ~ U(largex).
 * The β draw is made even when large-x is off (β = 0), so α never depends on that switch; and
 * a replica's exponents depend only on its own seed, not on which other replicas exist.
 *
 * @param largeX - whether the (1 − x)^β factor is on (off with feature scaling)
 */
export function initialExponents(
  flavours: readonly PreprocessingFlavour[],
  seed: number,
  largeX: boolean,
): InitialExponents {
  const random = new SeededRandom(seed);
  const alpha = new Float64Array(flavours.length);
  const beta = new Float64Array(flavours.length);
  flavours.forEach((flavour, f) => {
    alpha[f] = drawIn(flavour.smallx, random);
    const betaDraw = random.uniform();
    if (largeX) {
      const [low, high] = largeXRange(flavour, f);
      beta[f] = low + (high - low) * betaDraw;
    }
  });
  return { alpha, beta };
}

/** Throws unless the flavours have distinct names and valid ranges (β's only if `largeX`). */
export function checkPreprocessingFlavours(
  flavours: readonly PreprocessingFlavour[],
  largeX: boolean,
): void {
  if (flavours.length === 0) {
    throw new InvalidArgumentError({
      argument: 'flavours',
      problem: 'expected at least one flavour',
    });
  }
  flavours.forEach((flavour, f) => {
    if (!/^[a-z0-9]+$/.test(flavour.fl)) {
      throw new InvalidArgumentError({
        argument: `flavours[${f}].fl`,
        problem: `expected a name of lower-case letters and digits like the runcard's (sng, g, v3, t15, …), got '${flavour.fl}'; tfjs rewrites other names when a model is saved`,
      });
    }
    if (flavours.findIndex((other) => other.fl === flavour.fl) !== f) {
      throw new InvalidArgumentError({
        argument: `flavours[${f}].fl`,
        problem: `flavour '${flavour.fl}' appears twice`,
      });
    }
    checkRange(flavour.smallx, `flavours[${f}].smallx`);
    if (largeX) checkRange(largeXRange(flavour, f), `flavours[${f}].largex`);
  });
}

function largeXRange(flavour: PreprocessingFlavour, f: number): readonly [number, number] {
  if (flavour.largex === undefined) {
    throw new InvalidArgumentError({
      argument: `flavours[${f}].largex`,
      problem: `flavour '${flavour.fl}' has no large-x range; give one, or turn large-x preprocessing off (feature scaling)`,
    });
  }
  return flavour.largex;
}

function checkRange(range: readonly [number, number], argument: string): void {
  const [low, high] = range;
  if (!Number.isFinite(low) || !Number.isFinite(high) || low > high) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected a range [low, high] of finite numbers with low ≤ high, got [${low}, ${high}]`,
    });
  }
}

function drawIn(range: readonly [number, number], random: SeededRandom): number {
  return random.uniformBetween(range[0], range[1]);
}
