import { ShapeError } from '../errors/shape-error.js';
import { createMatrix, transposeMatrix, type Matrix } from '../linalg/matrix.js';
import { EVOLUTION_BASIS_SIZE, evolutionIndex, type EvolutionFlavour } from './evolution-basis.js';
import { FLAVOUR_BASIS } from './flavour-basis.js';

/** Quarks in the order the evolution-basis combinations use: u, d, s, c, b, t. */
const QUARKS = ['U', 'D', 'S', 'C', 'B', 'T'] as const;

/** Evolution-basis singlet-like (q⁺) and valence-like (q⁻) combinations, by weight vector. */
const COMBINATIONS: readonly { plus: EvolutionFlavour; minus: EvolutionFlavour }[] = [
  { plus: 'Sigma', minus: 'V' },
  { plus: 'T3', minus: 'V3' },
  { plus: 'T8', minus: 'V8' },
  { plus: 'T15', minus: 'V15' },
  { plus: 'T24', minus: 'V24' },
  { plus: 'T35', minus: 'V35' },
];

/**
 * Weight of quark `quark` (0 = u … 5 = t) in combination `k`: all ones for Σ/V (k = 0); for
 * T/V with k ≥ 1 (T3, T8, T15, T24, T35) ones for the first k quarks and −k for quark k.
 */
function combinationWeight(k: number, quark: number): number {
  if (k === 0 || quark < k) return 1;
  return quark === k ? -k : 0;
}

function flavourIndex(name: string): number {
  return FLAVOUR_BASIS.findIndex((member) => member.name === name);
}

function buildFlavourToEvolution(): Matrix {
  const rotation = createMatrix(EVOLUTION_BASIS_SIZE, FLAVOUR_BASIS.length);
  const set = (row: number, column: number, value: number) => {
    rotation.data[row * FLAVOUR_BASIS.length + column] = value;
  };
  set(evolutionIndex('photon'), flavourIndex('PHT'), 1);
  set(evolutionIndex('g'), flavourIndex('GLUON'), 1);
  COMBINATIONS.forEach(({ plus, minus }, k) => {
    QUARKS.forEach((quark, q) => {
      const weight = combinationWeight(k, q);
      if (weight === 0) return;
      // q⁺ = q + q̄ and q⁻ = q − q̄
      set(evolutionIndex(plus), flavourIndex(quark), weight);
      set(evolutionIndex(plus), flavourIndex(`${quark}BAR`), weight);
      set(evolutionIndex(minus), flavourIndex(quark), weight);
      set(evolutionIndex(minus), flavourIndex(`${quark}BAR`), -weight);
    });
  });
  return rotation;
}

/**
 * The inverse of a matrix whose rows are mutually orthogonal: its transpose with column i divided
 * by |row i|². The evolution-basis combinations are such rows (|Σ|² = |V|² = 12,
 * |T_k|² = |V_k|² = 2·k(k+1) for T3 … T35, |γ|² = |g|² = 1), so this inverse is exact up to the
 * rounding of each entry.
 */
function invertOrthogonalRows(rotation: Matrix): Matrix {
  const inverse = transposeMatrix(rotation);
  const { rows, columns } = rotation;
  for (let row = 0; row < rows; row++) {
    let normSquared = 0;
    for (let column = 0; column < columns; column++)
      normSquared += rotation.data[row * columns + column] ** 2;
    for (let column = 0; column < columns; column++)
      inverse.data[column * rows + row] /= normSquared;
  }
  return inverse;
}

/**
 * The rotation from the flavour (LHA) basis to the evolution basis, shape
 * (evolution flavour, LHA flavour) = (14, 14): `evolution = FLAVOUR_TO_EVOLUTION · lha`, with both
 * bases in the orders of {@link EVOLUTION_BASIS} and {@link FLAVOUR_BASIS}. Entries are the
 * integers of the definitions, exact in float64.
 */
export const FLAVOUR_TO_EVOLUTION: Matrix = buildFlavourToEvolution();

/**
 * The exact inverse of {@link FLAVOUR_TO_EVOLUTION}, shape (LHA flavour, evolution flavour) =
 * (14, 14): `lha = EVOLUTION_TO_FLAVOUR · evolution`. Built from the orthogonality of the
 * combinations (each entry is ±w/(2|w|²), correctly rounded), not by a numerical inversion.
 */
export const EVOLUTION_TO_FLAVOUR: Matrix = invertOrthogonalRows(FLAVOUR_TO_EVOLUTION);

/**
 * Applies a flavour rotation to many points at once.
 *
 * @param rotation - (to flavour, from flavour)
 * @param values - (points, from flavour), row-major
 * @returns (points, to flavour), row-major
 */
export function rotateFlavours(rotation: Matrix, values: Float64Array): Float64Array {
  const from = rotation.columns;
  const to = rotation.rows;
  const points = values.length / from;
  if (!Number.isInteger(points)) {
    throw new ShapeError({
      quantity: 'values to rotate',
      expected: [null, from],
      actual: [values.length],
    });
  }
  const result = new Float64Array(points * to);
  for (let point = 0; point < points; point++) {
    for (let i = 0; i < to; i++) {
      let sum = 0;
      for (let j = 0; j < from; j++) sum += rotation.data[i * from + j] * values[point * from + j];
      result[point * to + i] = sum;
    }
  }
  return result;
}

const PLUS_INDICES = COMBINATIONS.map(({ plus }) => evolutionIndex(plus));
const MINUS_INDICES = COMBINATIONS.map(({ minus }) => evolutionIndex(minus));
const QUARK_INDICES = QUARKS.map(flavourIndex);
const ANTIQUARK_INDICES = QUARKS.map((quark) => flavourIndex(`${quark}BAR`));
const GLUON = { evolution: evolutionIndex('g'), lha: flavourIndex('GLUON') };
const PHOTON = { evolution: evolutionIndex('photon'), lha: flavourIndex('PHT') };

/**
 * `lha = EVOLUTION_TO_FLAVOUR · evolution` at one point, by undoing the combinations one quark at
 * a time (T_k = S_k − k·q⁺_k with S_k the sum of the first k quarks' q⁺, so q⁺_k =
 * (S_(k+1) − T_k)/(k + 1), from S_6 = Σ down; the same for q⁻ with V and V_k; q = (q⁺ + q⁻)/2,
 * q̄ = (q⁺ − q⁻)/2): about 50 operations where the matrix takes 106 products. Equal to
 * {@link EVOLUTION_TO_FLAVOUR}'s product up to rounding.
 *
 * @param evolution - holds the point's 14 evolution-basis values from `from`, in
 *   {@link EVOLUTION_BASIS} order
 * @param lha - receives its 14 flavour-basis values from `to`, in {@link FLAVOUR_BASIS} order
 */
export function evolutionToFlavourAt(
  evolution: ArrayLike<number>,
  from: number,
  lha: Float64Array,
  to: number,
): void {
  let plusSum = evolution[from + PLUS_INDICES[0]];
  let minusSum = evolution[from + MINUS_INDICES[0]];
  for (let k = QUARKS.length - 1; k >= 1; k--) {
    const plus = (plusSum - evolution[from + PLUS_INDICES[k]]) / (k + 1);
    const minus = (minusSum - evolution[from + MINUS_INDICES[k]]) / (k + 1);
    lha[to + QUARK_INDICES[k]] = (plus + minus) / 2;
    lha[to + ANTIQUARK_INDICES[k]] = (plus - minus) / 2;
    plusSum -= plus;
    minusSum -= minus;
  }
  lha[to + QUARK_INDICES[0]] = (plusSum + minusSum) / 2;
  lha[to + ANTIQUARK_INDICES[0]] = (plusSum - minusSum) / 2;
  lha[to + GLUON.lha] = evolution[from + GLUON.evolution];
  lha[to + PHOTON.lha] = evolution[from + PHOTON.evolution];
}
