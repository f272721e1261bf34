import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import {
  customIntegrationGrid,
  gaussIntegrationGrid,
  integrationGrid,
  nnpdfIntegrationGrid,
} from './integration-grid.js';

describe('integration grids', () => {
  it("should reproduce upstream's 2000-point grid and its trapezoid weights", () => {
    const grid = nnpdfIntegrationGrid();
    expect(grid.x.length).toBe(2000);
    expect(grid.x[0]).toBe(1e-9);
    expect(grid.x[999]).toBeCloseTo(10 ** (-1 - 8 / 1000), 15);
    expect(grid.x[1000]).toBe(0.1);
    expect(grid.x[1001]).toBeCloseTo(0.1 + 0.9 / 999, 15);
    expect(grid.x[1999]).toBe(1);
    expect(grid.weights[0]).toBeCloseTo((grid.x[1] - grid.x[0]) / 2, 20);
    expect(grid.weights[1000]).toBeCloseTo((grid.x[1001] - grid.x[999]) / 2, 16);
    expect(grid.weights[1999]).toBeCloseTo(0.9 / 999 / 2, 16);
    // The trapezoid rule integrates 1 and x exactly over [1e-9, 1].
    expect(grid.weights.reduce((sum, w) => sum + w, 0)).toBeCloseTo(1 - 1e-9, 12);
    expect(grid.weights.reduce((sum, w, i) => sum + w * grid.x[i], 0)).toBeCloseTo(0.5, 12);
  });

  it('should split a Gauss grid between log x below 0.1 and x above, integrating x^−0.5 accurately', () => {
    const grid = gaussIntegrationGrid(100, 40);
    expect(grid.x.length).toBe(100);
    expect(grid.x.filter((x) => x < 0.1).length).toBe(40);
    expect(grid.x[0]).toBeGreaterThan(1e-9);
    expect(grid.x[99]).toBeLessThan(1);
    const exact = 2 * (1 - Math.sqrt(1e-9));
    const integral = grid.weights.reduce((sum, w, i) => sum + w / Math.sqrt(grid.x[i]), 0);
    expect(Math.abs(integral / exact - 1)).toBeLessThan(1e-12);
    expect(integrationGrid(grid.spec).x).toEqual(grid.x);
  });

  it('should reject impossible grids with typed errors', () => {
    expect(() => nnpdfIntegrationGrid(3)).toThrow(InvalidArgumentError);
    expect(() => gaussIntegrationGrid(10, 10)).toThrow(
      /smallXPoints: expected an integer between 1 and 9/,
    );
    expect(() => customIntegrationGrid([0.1, 0.2], [1])).toThrow(ShapeError);
    expect(() => customIntegrationGrid([0.1, 0], [1, 1])).toThrow(/integration grid point 1/);
    expect(() => customIntegrationGrid([0.1, 0.5], [1, Number.NaN])).toThrow(/finite weight/);
  });
});
