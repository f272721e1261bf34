import { describe, expect, it } from 'vitest';
import { dropBelowBand, multiplyBanded, multiplyDense } from './banded-product.js';

/** Values in [−1, 1) from a fixed linear congruential sequence. */
function sequence(length: number, seed: number): Float64Array {
  let state = seed;
  return Float64Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 1073741824 - 1;
  });
}

/** (blocks·n, blocks·n) with each block upper triangular but for `band` sub-diagonals. */
function bandedKernel(n: number, blocks: number, band: number): Float64Array {
  const size = n * blocks;
  const kernel = sequence(size * size, 7);
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      if (column % n < (row % n) - band) kernel[row * size + column] = 0;
    }
  }
  return kernel;
}

describe('multiplyBanded', () => {
  const n = 13;
  const band = 2;

  it('should equal the dense product for any columns', () => {
    const kernel = bandedKernel(n, 2, band);
    const state = sequence(2 * n * 5, 3);
    const out = new Float64Array(2 * n * 5);
    multiplyBanded(kernel, state, out, n, 2, 5, band, 'dense');
    const expected = multiplyDense(kernel, state, 2 * n, 2 * n, 5);
    out.forEach((value, i) => {
      expect(value).toBeCloseTo(expected[i], 13);
    });
  });

  it('should equal the dense product cut to the band for an operator state', () => {
    const lowerBand = 3;
    for (const blocks of [1, 2]) {
      const kernel = bandedKernel(n, blocks, band);
      const columns = 2 * n;
      const state = dropBelowBand(sequence(blocks * n * columns, 5), n, columns, lowerBand);
      const out = new Float64Array(blocks * n * columns);
      multiplyBanded(kernel, state, out, n, blocks, columns, band, lowerBand);
      const full = multiplyDense(kernel, state, blocks * n, blocks * n, columns);
      const expected = dropBelowBand(Float64Array.from(full), n, columns, lowerBand);
      out.forEach((value, i) => {
        expect(value).toBeCloseTo(expected[i], 13);
      });
      // What was dropped is really there in the full product: the cut is not a no-op.
      expect(full.some((value, i) => expected[i] === 0 && value !== 0)).toBe(true);
    }
  });
});

describe('dropBelowBand', () => {
  it('should zero exactly the entries more than the band below each block diagonal', () => {
    const n = 4;
    const state = dropBelowBand(new Float64Array(2 * n * 2 * n).fill(1), n, 2 * n, 1);
    const row = (r: number) => Array.from(state.subarray(r * 2 * n, (r + 1) * 2 * n));
    expect(row(0)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(row(3)).toEqual([0, 0, 1, 1, 0, 0, 1, 1]);
    expect(row(n + 2)).toEqual([0, 1, 1, 1, 0, 1, 1, 1]);
  });
});
