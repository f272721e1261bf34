import { InvalidArgumentError, matrixFromRows, ShapeError, createMatrix } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { correlationMatrix } from './correlation-matrix.js';

describe('correlationMatrix', () => {
  it('should divide by the standard deviations', () => {
    // σ = 2, 3: ρ = 3 / 6.
    const correlation = correlationMatrix(
      matrixFromRows([
        [4, 3],
        [3, 9],
      ]),
    );
    expect(Array.from(correlation.data)).toEqual([1, 0.5, 0.5, 1]);
  });

  it('should refuse a point without variance and a matrix that is not square', () => {
    expect(() =>
      correlationMatrix(
        matrixFromRows([
          [1, 0],
          [0, 0],
        ]),
      ),
    ).toThrow(InvalidArgumentError);
    expect(() =>
      correlationMatrix(
        matrixFromRows([
          [1, 0],
          [0, 0],
        ]),
      ),
    ).toThrow('the variance of point 1 is 0, not positive');
    expect(() => correlationMatrix(createMatrix(2, 3))).toThrow(ShapeError);
  });
});
