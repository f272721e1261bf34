import {
  EVOLUTION_BASIS_SIZE,
  InvalidArgumentError,
  ShapeError,
  evolutionIndex,
  type EvolutionFlavour,
} from '@partonfit/core';
import { simpsonIntegral } from './simpson.js';

/**
 * One replica's PDF at Q0: x·f in the 14-flavour evolution basis at the given x values,
 * returned as (x, flavour) row-major.
 */
export type EvolutionPdf = (xGrid: Float64Array) => Float64Array | Float32Array;

/** The flavours whose arc lengths a replica's JSON records, in order: Σ, g, V, V3, V8. */
export const ARC_LENGTH_FLAVOURS: readonly EvolutionFlavour[] = ['Sigma', 'g', 'V', 'V3', 'V8'];

/** The flavours whose integrability numbers a replica's JSON records: V, T3, V3, T8, V8. */
export const INTEGRABILITY_FLAVOURS: readonly EvolutionFlavour[] = ['V', 'T3', 'V3', 'T8', 'V8'];

/** The x segments of the arc length, [1e-6, 1e-4], [1e-4, 1e-2], [1e-2, 1]. */
const ARC_LENGTH_SEGMENTS: readonly (readonly [number, number])[] = [
  [1e-6, 1e-4],
  [1e-4, 1e-2],
  [1e-2, 1],
];
/** Points per arc-length segment (numpy `linspace(a, b, 199, endpoint=False)`). */
const ARC_LENGTH_SEGMENT_POINTS = 199;

function buildArcLengthGrid(): Float64Array {
  const grid = new Float64Array(ARC_LENGTH_SEGMENTS.length * ARC_LENGTH_SEGMENT_POINTS);
  ARC_LENGTH_SEGMENTS.forEach(([low, high], segment) => {
    const step = (high - low) / ARC_LENGTH_SEGMENT_POINTS;
    for (let k = 0; k < ARC_LENGTH_SEGMENT_POINTS; k++) {
      grid[segment * ARC_LENGTH_SEGMENT_POINTS + k] = k * step + low;
    }
  });
  return grid;
}

/**
 * The x points at which {@link arcLengthsFromValues} needs the PDF, shape (x) = (597): for each
 * segment [a, b] of [1e-6, 1e-4], [1e-4, 1e-2], [1e-2, 1], the 199 points a + k·(b − a)/199,
 * k = 0 … 198 (b itself excluded), segments one after another. Treat as read-only.
 */
export const ARC_LENGTH_X_GRID: Float64Array = buildArcLengthGrid();

/** The x points at which {@link integrabilityNumbersFromValues} needs the PDF: 1e-9, 1e-8, 1e-7. */
export const INTEGRABILITY_X_GRID: Float64Array = Float64Array.from([1e-9, 1e-8, 1e-7]);

function checkValues(values: Float64Array | Float32Array, points: number, quantity: string): void {
  if (values.length !== points * EVOLUTION_BASIS_SIZE) {
    throw new ShapeError({
      quantity,
      expected: [points, EVOLUTION_BASIS_SIZE],
      actual: [values.length],
      axes: '(x, flavour)',
    });
  }
  const bad = values.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) {
    throw new InvalidArgumentError({
      argument: quantity,
      problem:
        `${values[bad]} at x index ${Math.floor(bad / EVOLUTION_BASIS_SIZE)}, ` +
        `flavour ${bad % EVOLUTION_BASIS_SIZE}; the PDF must be finite`,
    });
  }
}

/**
 * The arc lengths of Σ, g, V, V3, V8 ({@link ARC_LENGTH_FLAVOURS}) from the PDF on
 * {@link ARC_LENGTH_X_GRID}, as validphys's `arc_lengths` (`validphys/arclength.py`, called by
 * n3fit's `vpinterface.compute_arclength` for the replica JSON) computes them. On each segment
 * [a, b] with step ε = (b − a)/199 and points x_k = a + kε (k = 0 … 198), with
 * F(x) = x · (x·f(x)) — validphys multiplies its grid values, which are already x·f, by x once
 * more —
 *
 *     L_segment = ∫ √(1 + F'(x)²) dx over x_1 … x_198,   F'(x_k) ≈ (F(x_k) − F(x_{k−1}))/ε,
 *
 * integrated with {@link simpsonIntegral}, and L = the sum over the three segments. Each segment
 * thus spans [a + ε, b − ε]: a curve with F' = 0 everywhere has L = (1 − 10⁻⁶)·197/199.
 *
 * @param values - x·f at Q0 on {@link ARC_LENGTH_X_GRID}, (x, flavour) = (597, 14) in the
 *   evolution basis
 * @returns (flavour) = (5) in {@link ARC_LENGTH_FLAVOURS} order
 * @throws ShapeError for a wrong number of values; InvalidArgumentError for a non-finite value
 */
export function arcLengthsFromValues(values: Float64Array | Float32Array): Float64Array {
  checkValues(values, ARC_LENGTH_X_GRID.length, 'arc-length PDF values');
  const lengths = new Float64Array(ARC_LENGTH_FLAVOURS.length);
  const curve = new Float64Array(ARC_LENGTH_SEGMENT_POINTS);
  const integrand = new Float64Array(ARC_LENGTH_SEGMENT_POINTS - 1);
  ARC_LENGTH_FLAVOURS.forEach((flavour, output) => {
    const column = evolutionIndex(flavour);
    ARC_LENGTH_SEGMENTS.forEach(([low, high], segment) => {
      const first = segment * ARC_LENGTH_SEGMENT_POINTS;
      const step = (high - low) / ARC_LENGTH_SEGMENT_POINTS;
      for (let k = 0; k < ARC_LENGTH_SEGMENT_POINTS; k++) {
        const x = ARC_LENGTH_X_GRID[first + k];
        curve[k] = x * values[(first + k) * EVOLUTION_BASIS_SIZE + column];
      }
      for (let k = 1; k < ARC_LENGTH_SEGMENT_POINTS; k++) {
        const slope = (curve[k] - curve[k - 1]) / step;
        integrand[k - 1] = Math.sqrt(1 + slope * slope);
      }
      lengths[output] =
        lengths[output] +
        simpsonIntegral(
          integrand,
          ARC_LENGTH_X_GRID.subarray(first + 1, first + ARC_LENGTH_SEGMENT_POINTS),
        );
    });
  });
  return lengths;
}

/**
 * The integrability numbers of V, T3, V3, T8, V8 ({@link INTEGRABILITY_FLAVOURS}) from the PDF
 * on {@link INTEGRABILITY_X_GRID}, as validphys's `integrability_number`
 * (`validphys/arclength.py`, called by n3fit's `vpinterface.integrability_numbers`):
 *
 *     I_f = Σ_{x ∈ {1e-9, 1e-8, 1e-7}} |x·f(x)|.
 *
 * postfit rejects replicas with any I_f above 0.5 (`validphys/fitveto.py`, `INTEG_THRESHOLD`).
 *
 * @param values - x·f at Q0 on {@link INTEGRABILITY_X_GRID}, (x, flavour) = (3, 14) in the
 *   evolution basis
 * @returns (flavour) = (5) in {@link INTEGRABILITY_FLAVOURS} order
 * @throws ShapeError for a wrong number of values; InvalidArgumentError for a non-finite value
 */
export function integrabilityNumbersFromValues(values: Float64Array | Float32Array): Float64Array {
  checkValues(values, INTEGRABILITY_X_GRID.length, 'integrability PDF values');
  return Float64Array.from(INTEGRABILITY_FLAVOURS, (flavour) => {
    const column = evolutionIndex(flavour);
    let sum = 0;
    for (let ix = 0; ix < INTEGRABILITY_X_GRID.length; ix++) {
      sum += Math.abs(values[ix * EVOLUTION_BASIS_SIZE + column]);
    }
    return sum;
  });
}

/**
 * {@link arcLengthsFromValues} of a PDF evaluated on {@link ARC_LENGTH_X_GRID} in one call.
 *
 * @param pdf - one replica's x·f at Q0 in the evolution basis
 * @returns (flavour) = (5): Σ, g, V, V3, V8
 */
export function arcLengths(pdf: EvolutionPdf): Float64Array {
  return arcLengthsFromValues(pdf(ARC_LENGTH_X_GRID.slice()));
}

/**
 * {@link integrabilityNumbersFromValues} of a PDF evaluated on {@link INTEGRABILITY_X_GRID}.
 *
 * @param pdf - one replica's x·f at Q0 in the evolution basis
 * @returns (flavour) = (5): V, T3, V3, T8, V8
 */
export function integrabilityNumbers(pdf: EvolutionPdf): Float64Array {
  return integrabilityNumbersFromValues(pdf(INTEGRABILITY_X_GRID.slice()));
}
