import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { parseLhapdfGrid } from './lhapdf-grid.js';
import { parseLhapdfInfo } from './lhapdf-set.js';
import { evenly, infoText, memberText } from './lhapdf.fixture.js';
import { interpolateLogCubicX } from './log-bicubic.js';
import { xfxQ } from './xfx.js';

/** Uneven x knots, as an exportgrid's: log-spaced at small x, linear at large x. */
const X_KNOTS = Float64Array.from([
  ...evenly(Math.log(1e-7), Math.log(0.1), 9).map(Math.exp),
  ...evenly(0.2, 1, 5),
]);
const Q_KNOTS = [1.65, 2, 3, 5];
const PIDS = [21, 2];

/** Two columns: x·g and x·u of a PDF with an x^(1−α)(1−x)^β shape and a Q dependence. */
function pdf(x: number, q: number, pid: number): number {
  const scale = 1 + 0.1 * Math.log(q);
  return pid === 21
    ? scale * 2.3 * x ** -0.1 * (1 - x) ** 4.5
    : scale * 1.7 * x ** 0.6 * (1 - x) ** 3 * (1 + 3 * x);
}

describe('interpolateLogCubicX', () => {
  const set = parseLhapdfInfo(infoText({ pids: PIDS }), {
    name: 'Synthetic',
    folder: '/synthetic',
    infoFile: '/synthetic/Synthetic.info',
  });
  const member = parseLhapdfGrid(
    memberText({ xKnots: [...X_KNOTS], blocks: [{ qKnots: Q_KNOTS }], pids: PIDS, value: pdf }),
    { set, member: 0, file: 'Synthetic_0000.dat' },
  );
  /** The member's values at the first Q knot, (x, 2), as an exportgrid holds them. */
  const atQ0 = Float64Array.from({ length: X_KNOTS.length * 2 }, (_, i) =>
    Number(String(pdf(X_KNOTS[Math.floor(i / 2)], Q_KNOTS[0], PIDS[i % 2]))),
  );

  it("should equal LHAPDF's log-bicubic interpolation at a Q knot, between and at the x knots", () => {
    const points = [1e-7, 1e-6, 1e-3, 0.05, 0.1, 0.65, 0.95, 1];
    const interpolated = interpolateLogCubicX(X_KNOTS, atQ0, points);
    points.forEach((x, p) => {
      PIDS.forEach((pid, column) => {
        const lhapdf = xfxQ(member, pid, x, Q_KNOTS[0]);
        expect(interpolated[p * 2 + column]).toBeCloseTo(lhapdf, 14);
      });
    });
  });

  it('should be exact at the knots and for a function linear in log x', () => {
    const linear = X_KNOTS.map((x) => 3 - 0.25 * Math.log(x));
    const points = [X_KNOTS[0], X_KNOTS[4], 3e-5, 0.42, 1];
    const values = interpolateLogCubicX(X_KNOTS, linear, points);
    points.forEach((x, p) => {
      expect(values[p]).toBeCloseTo(3 - 0.25 * Math.log(x), 13);
    });
    expect(interpolateLogCubicX(X_KNOTS, linear, [X_KNOTS[4]])[0]).toBe(linear[4]);
  });

  it('should refuse a point outside the knots and values that are not rows of the knots', () => {
    expect(() => interpolateLogCubicX(X_KNOTS, atQ0, [1e-8])).toThrow(InvalidArgumentError);
    expect(() => interpolateLogCubicX(X_KNOTS, atQ0, [1e-8])).toThrow(
      /points: x = 1e-8 is outside the knots \[9\.99\d*e-8, 1\]/,
    );
    expect(() => interpolateLogCubicX(X_KNOTS, atQ0.subarray(1), [0.1])).toThrow(ShapeError);
    expect(() => interpolateLogCubicX(X_KNOTS.subarray(0, 1), atQ0, [0.1])).toThrow(
      /xKnots: expected at least 2 knots, got 1/,
    );
  });
});
