import { EVOLUTION_BASIS_SIZE, evolutionIndex } from '@partonfit/core';
import { INTEGRABILITY_THRESHOLD, integrabilityNumbersFromValues } from '@partonfit/fit-folder';

/** The x points of the saturation penalty: 100 points log-spaced from 10⁻⁶ to 10⁻⁴ (n3fit's). */
export const SATURATION_X_GRID: Float64Array = Float64Array.from(
  { length: 100 },
  (_, i) => 10 ** (-6 + (2 * i) / 99),
);

/** The flavours whose small-x slope the saturation penalty checks: Σ and g. */
const SATURATION_FLAVOURS = [evolutionIndex('Sigma'), evolutionIndex('g')];

/**
 * n3fit's `saturation` penalty per replica: for Σ and g, the slope of x·f against log₁₀ x on
 * {@link SATURATION_X_GRID}; each flavour adds 1/(10⁻⁷ + |mean slope| + std of the slopes), so a
 * PDF that flattens out at small x (saturates) is penalised.
 *
 * @param xf - x·f on {@link SATURATION_X_GRID}, `(replicas, x, flavour)` in the evolution basis
 */
export function saturationPenalties(xf: Float32Array | Float64Array, replicas: number): number[] {
  const points = SATURATION_X_GRID.length;
  const logX = Array.from(SATURATION_X_GRID, Math.log10);
  return Array.from({ length: replicas }, (_, r) =>
    SATURATION_FLAVOURS.reduce((penalty, flavour) => {
      const slopes = Array.from({ length: points - 1 }, (_, i) => {
        const at = (k: number) => xf[(r * points + k) * EVOLUTION_BASIS_SIZE + flavour];
        return (at(i + 1) - at(i)) / (logX[i + 1] - logX[i]);
      });
      const mean = slopes.reduce((sum, slope) => sum + slope, 0) / slopes.length;
      const spread = Math.sqrt(
        slopes.reduce((sum, slope) => sum + (slope - mean) ** 2, 0) / slopes.length,
      );
      return penalty + 1 / (1e-7 + Math.abs(mean) + spread);
    }, 0),
  );
}

/** What the patience penalty needs of one replica's training. */
export interface ReplicaStoppingRecord {
  /** Validation χ²/n at the best epoch. */
  readonly validation: number;
  /** The best epoch. */
  readonly bestEpoch: number;
  /** The replica's `epochs`. */
  readonly epochs: number;
  /** Its patience in epochs, ⌊epochs · stopping_patience⌋. */
  readonly patienceEpochs: number;
}

/**
 * n3fit's `patience` penalty: χ²_vl · exp(10⁻⁴ · |epochs − patience − best epoch|), 0 in the
 * exponent when the best epoch is exactly the last one patience allows.
 */
export function patiencePenalty(record: ReplicaStoppingRecord): number {
  const distance = Math.abs(record.epochs - record.patienceEpochs - record.bestEpoch);
  return record.validation * Math.exp(1e-4 * distance);
}

/**
 * n3fit's `integrability` penalty per replica: e^s − 1, with s the sum of the integrability
 * numbers above postfit's threshold (0.5), capped at 50; NaN for a replica whose PDF is not
 * finite (it diverged).
 *
 * @param xf - x·f on fit-folder's `INTEGRABILITY_X_GRID`, `(replicas, x, flavour)`
 */
export function integrabilityPenalties(
  xf: Float32Array | Float64Array,
  replicas: number,
): number[] {
  const size = xf.length / replicas;
  return Array.from({ length: replicas }, (_, r) => {
    const values = xf.subarray(r * size, (r + 1) * size);
    // a diverged replica's PDF is not finite: it has no penalty to give
    if (!values.every(Number.isFinite)) return Number.NaN;
    const numbers = integrabilityNumbersFromValues(values);
    const excess = numbers.reduce(
      (sum, value) => sum + (value > INTEGRABILITY_THRESHOLD ? value : 0),
      0,
    );
    return Math.expm1(Math.min(excess, 50));
  });
}
