import { describe, expect, it } from 'vitest';
import { buildEvolutionOperator } from './evolution-operator.js';
import { OPERATOR_BEFORE_SPEEDUP } from './operator-regression.fixture.js';
import { toyTheoryCard, X_GRID } from './toy-proton.fixture.js';

/** Every second knot of the toy grid, and x = 1. */
const COARSE_GRID = Float64Array.from(
  X_GRID.filter((_, i) => i % 2 === 0 || i === X_GRID.length - 1),
);

describe('the evolution operator against the one built before the speed-up', () => {
  // The products are summed in another order and the NNLO truncated products take five kernel
  // products instead of six: rounding differs, nothing else (measured: ≤ 3·10⁻¹⁶ of each block's
  // largest entry here, ≤ 2·10⁻¹⁵ on NNPDF4.0's grid).
  it.each(['TRN', 'EXA'] as const)(
    'should give the %s operator of the toy theory to 1e-12 of each block’s largest entry',
    (method) => {
      const n = COARSE_GRID.length;
      const operator = buildEvolutionOperator(toyTheoryCard(`ModEv: ${method}\n`), {
        xGrid: COARSE_GRID,
        qGrid: [1.4, 2, 4.92, 4.92, 10, 100],
      });
      const expected = OPERATOR_BEFORE_SPEEDUP[method].trim().split(/\s+/).map(Number);
      const actual: number[] = [];
      for (const q of [2, 3, 5]) {
        for (const { matrix } of operator.blocks[q]) {
          actual.push(matrix.reduce((largest, value) => Math.max(largest, Math.abs(value)), 0));
          for (const i of [0, 25, 46]) {
            for (const j of [i, i + 3, n - 2]) actual.push(matrix[i * n + j]);
          }
        }
      }
      expect(actual).toHaveLength(expected.length);
      for (let block = 0; block < expected.length; block += 10) {
        const largest = expected[block];
        expect(actual[block]).toBeCloseTo(largest, 12);
        for (let k = block; k < block + 10; k++) {
          expect(Math.abs(actual[k] - expected[k])).toBeLessThanOrEqual(1e-12 * largest);
        }
      }
      // What is compared has evolved: it is not the identity of Q0.
      expect(expected.some((value) => value !== 0 && value !== 1)).toBe(true);
    },
  );
});
