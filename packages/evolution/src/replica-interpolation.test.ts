import { FLAVOUR_BASIS, InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { interpolateReplicas } from './replica-interpolation.js';
import { toyPdfs, X_GRID } from './toy-proton.fixture.js';

const FLAVOURS = FLAVOUR_BASIS.length;

describe('interpolateReplicas', () => {
  it('should reproduce polynomials of degree 4 in ln x exactly, replica by replica', () => {
    const xGrid = Float64Array.from({ length: 30 }, (_, i) => 10 ** (-6 + (6 * i) / 29));
    const points = [1e-6, 3.7e-5, 0.0123, 0.5, 0.999, 1];
    const polynomial = (x: number, r: number, f: number) => {
      const l = Math.log(x);
      return (r + 1) * l * (0.3 + f * 0.01 * l - 0.002 * l ** 3);
    };
    const xf = new Float64Array(2 * xGrid.length * FLAVOURS);
    xGrid.forEach((x, i) => {
      for (let r = 0; r < 2; r++)
        for (let f = 0; f < FLAVOURS; f++)
          xf[(r * xGrid.length + i) * FLAVOURS + f] = polynomial(x, r, f);
    });
    const out = interpolateReplicas(xf, 2, xGrid, points);
    points.forEach((x, p) => {
      for (let r = 0; r < 2; r++) {
        for (let f = 0; f < FLAVOURS; f++) {
          const expected = polynomial(x, r, f);
          const actual = out[(r * points.length + p) * FLAVOURS + f];
          expect(Math.abs(actual - expected)).toBeLessThan(1e-10 * Math.max(1, Math.abs(expected)));
        }
      }
    });
  });

  it('should return the values at the knots themselves and refuse points below the grid', () => {
    const xf = toyPdfs(1);
    expect([...interpolateReplicas(xf, 1, X_GRID, X_GRID)]).toEqual([...xf]);
    expect(() => interpolateReplicas(xf, 1, X_GRID, [X_GRID[0] / 2])).toThrow(InvalidArgumentError);
  });
});
