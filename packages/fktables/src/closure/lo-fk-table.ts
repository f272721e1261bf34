import {
  EVOLUTION_BASIS_SIZE,
  EVOLUTION_TO_FLAVOUR,
  FLAVOUR_BASIS,
  InvalidArgumentError,
} from '@partonfit/core';
import type { DisFkTable } from '../fktable/fk-table.js';
import type { FlavourCombination } from './lo-dis.js';
import { TOY_PDF_Q0 } from './toy-pdf.js';
import { interpolationWeights } from './x-interpolation.js';

/** The `file` of tables and datasets that the project generates rather than reads. */
export const GENERATED_FILE = '<generated>';

/**
 * Evolution-basis coefficients below this fraction of the largest are rounding residue of the
 * rotation (its entries are ±w/(2|w|²)) and are set to exactly zero.
 */
const ROUNDING_RESIDUE = 1e-12;

/**
 * A flavour combination rewritten in the evolution basis: with x·f_flavour =
 * Σ_c EVOLUTION_TO_FLAVOUR[flavour, c] · x·f_c, the combination Σ_q k_q x·f_q equals
 * Σ_c e_c x·f_c with e_c = Σ_q k_q · EVOLUTION_TO_FLAVOUR[q, c].
 *
 * @returns e, shape `(flavour)` in the order of core's `EVOLUTION_BASIS`; entries that are
 *   zero in exact arithmetic are exactly 0
 */
export function evolutionCoefficients(combination: FlavourCombination): Float64Array {
  const coefficients = new Float64Array(EVOLUTION_BASIS_SIZE);
  FLAVOUR_BASIS.forEach((member, q) => {
    const weight = combination[member.name as keyof FlavourCombination] ?? 0;
    for (let c = 0; c < EVOLUTION_BASIS_SIZE; c++) {
      coefficients[c] += weight * EVOLUTION_TO_FLAVOUR.data[q * EVOLUTION_BASIS_SIZE + c];
    }
  });
  const largest = coefficients.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
  return coefficients.map((value) => (Math.abs(value) <= ROUNDING_RESIDUE * largest ? 0 : value));
}

/** Options of {@link loFkTable}. */
export interface LoFkTableOptions {
  /** The table's name. */
  readonly name: string;
  /** What each point measures, in the flavour basis. */
  readonly combination: FlavourCombination;
  /** The x of each data point, shape `(data)`, inside the x-grid. */
  readonly x: Float64Array;
  /** The x-grid, shape `(x)`, increasing, in (0, 1). */
  readonly xGrid: Float64Array;
  /** Q0 in GeV, where the table is taken to apply; default the toy PDF's √2. */
  readonly q0?: number;
}

/**
 * The FK table of an observable that is a fixed flavour combination of x·f at each point's x
 * (LO DIS at the fitting scale, or a PDF value): FK[n, c, a] = e_c · I_a(x_n), with e the
 * combination in the evolution basis ({@link evolutionCoefficients}) and I_a the x-interpolation
 * weights ({@link interpolationWeights}). Its channels are the evolution flavours with e_c ≠ 0,
 * ascending; each point has at most `INTERPOLATION_DEGREE + 1` non-zero x entries per channel.
 *
 * @throws InvalidArgumentError - naming the table, for a combination that is zero or not
 *   finite, or a point outside the x-grid
 */
export function loFkTable(options: LoFkTableOptions): DisFkTable {
  const { name, combination, x, xGrid } = options;
  if (Object.values(combination).some((weight) => !Number.isFinite(weight))) {
    throw new InvalidArgumentError({
      argument: `combination of ${name}`,
      problem: 'has a coefficient that is not a finite number',
    });
  }
  const coefficients = evolutionCoefficients(combination);
  const channels = [...coefficients.keys()].filter((c) => coefficients[c] !== 0);
  if (channels.length === 0) {
    throw new InvalidArgumentError({ argument: `combination of ${name}`, problem: 'is zero' });
  }
  const nx = xGrid.length;
  const values = new Float64Array(x.length * channels.length * nx);
  x.forEach((point, n) => {
    if (!(point >= xGrid[0] && point <= xGrid[nx - 1])) {
      throw new InvalidArgumentError({
        argument: `x of ${name}`,
        problem: `point ${n} (x = ${point}) is outside the x-grid [${xGrid[0]}, ${xGrid[nx - 1]}]`,
      });
    }
    const { start, weights } = interpolationWeights(xGrid, point);
    channels.forEach((flavour, c) => {
      const base = (n * channels.length + c) * nx + start;
      weights.forEach((weight, k) => {
        values[base + k] = coefficients[flavour] * weight;
      });
    });
  });
  return {
    name,
    file: GENERATED_FILE,
    hadronic: false,
    q0: options.q0 ?? TOY_PDF_Q0,
    ndata: x.length,
    xGrid,
    channels,
    values,
    cFactors: [],
  };
}
