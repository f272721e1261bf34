import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { loadLhapdfMember, parseLhapdfGrid } from './lhapdf-grid.js';
import { loadLhapdfSet, parseLhapdfInfo } from './lhapdf-set.js';
import { evenly, infoText, memberText, writeSet } from './lhapdf.fixture.js';
import { xfxQ, xfxQ2 } from './xfx.js';

const PIDS = [1, 2, 21];
/** Uniform knots in L = log x and M = log Q². */
const L_KNOTS = evenly(Math.log(1e-4), Math.log(0.5), 8);
const M_KNOTS = evenly(Math.log(4), Math.log(1e4), 7);
const X_KNOTS = L_KNOTS.map(Math.exp);
const Q_KNOTS = M_KNOTS.map((m) => Math.exp(m / 2));
const H = L_KNOTS[1] - L_KNOTS[0];

const logs = (x: number, q: number) => ({ l: Math.log(x), m: Math.log(q * q) });
/** Quadratic in L and in M. */
const quadratic = (x: number, q: number) => {
  const { l, m } = logs(x, q);
  return (1 + 0.3 * l + 0.05 * l * l) * (2 - 0.1 * m + 0.02 * m * m);
};
/** Negative everywhere on the grid and bilinear in (L, M). */
const bilinear = (x: number, q: number) => {
  const { l, m } = logs(x, q);
  return -(3 + 0.3 * l) * (2 + 0.1 * m);
};
/** Positive and log-linear in (L, M): a power law in x and in Q². */
const powerLaw = (x: number, q: number) => {
  const { l, m } = logs(x, q);
  return Math.exp(-0.2 * l + 0.05 * m);
};
const cubicInL = (x: number) => Math.log(x) ** 3;

function byPid(x: number, q: number, pid: number): number {
  if (pid === 1) return bilinear(x, q);
  if (pid === 2) return quadratic(x, q);
  return powerLaw(x, q);
}

const SET = parseLhapdfInfo(infoText({ pids: PIDS }), {
  name: 'Synthetic',
  folder: '/synthetic',
  infoFile: '/synthetic/Synthetic.info',
});

function grid(blocks: { qKnots: readonly number[]; value?: typeof byPid }[], value = byPid) {
  const text = memberText({ xKnots: X_KNOTS, blocks, pids: PIDS, value });
  return parseLhapdfGrid(text, { set: SET, member: 0, file: 'Synthetic_0000.dat' });
}

const ONE_BLOCK = grid([{ qKnots: Q_KNOTS }]);

/** x at fraction `t` of the way from knot i to knot i + 1 in log x; likewise Q in log Q². */
const xBetween = (i: number, t: number) => Math.exp(L_KNOTS[i] + t * H);
const qBetween = (j: number, t: number) =>
  Math.exp((M_KNOTS[j] + t * (M_KNOTS[j + 1] - M_KNOTS[j])) / 2);

describe('log-bicubic interpolation (LHAPDF logcubic)', () => {
  it('should return the table at the knots, including the last x and Q knots', () => {
    for (const i of [0, 3, 7]) {
      for (const j of [0, 4, 6]) {
        expect(xfxQ(ONE_BLOCK, 2, X_KNOTS[i], Q_KNOTS[j])).toBe(
          Number(String(quadratic(X_KNOTS[i], Q_KNOTS[j]))),
        );
      }
    }
  });

  it('should be exact for a function quadratic in log x and log Q² away from the grid edges', () => {
    // uniform knots make the mean of the neighbouring slopes the exact derivative of a quadratic
    for (const i of [1, 2, 4]) {
      for (const j of [1, 2, 3]) {
        for (const t of [0.17, 0.5, 0.91]) {
          const x = xBetween(i, t);
          const q = qBetween(j, 1 - t);
          expect(xfxQ(ONE_BLOCK, 2, x, q)).toBeCloseTo(quadratic(x, q), 11);
        }
      }
    }
  });

  it('should be exact for a bilinear function everywhere, edges included', () => {
    for (const i of [0, 3, 6]) {
      for (const j of [0, 2, 5]) {
        const x = xBetween(i, 0.37);
        const q = qBetween(j, 0.71);
        expect(xfxQ(ONE_BLOCK, 1, x, q)).toBeCloseTo(bilinear(x, q), 12);
      }
    }
  });

  it('should take the knot derivative in log x as the mean of the neighbouring slopes', () => {
    const cubic = grid([{ qKnots: Q_KNOTS }], (x) => cubicInL(x));
    // For L³ on knots spaced h the mean of the neighbouring slopes is 3L² + h², h² above the
    // true derivative; a Hermite cubic with derivatives off by δ is off by δ·h·t(2t − 1)(t − 1).
    const t = 0.25;
    const l = L_KNOTS[3] + t * H;
    const expected = l ** 3 + H ** 3 * t * (2 * t - 1) * (t - 1);
    const value = xfxQ(cubic, 2, Math.exp(l), Q_KNOTS[2]);
    expect(value).toBeCloseTo(expected, 11);
    expect(Math.abs(value - l ** 3)).toBeGreaterThan(0.1);
  });

  it('should keep Q blocks apart: a threshold Q belongs to the block that starts there', () => {
    const jump = (x: number, q: number, pid: number) => byPid(x, q, pid) + 5;
    const twoBlocks = grid([{ qKnots: [2, 3, 4, 5] }, { qKnots: [5, 7, 10, 20], value: jump }]);
    const x = xBetween(2, 0.4);
    expect(xfxQ(twoBlocks, 1, x, 4.999)).toBeCloseTo(bilinear(x, 4.999), 12);
    expect(xfxQ(twoBlocks, 1, x, 5)).toBeCloseTo(bilinear(x, 5) + 5, 12);
    expect(xfxQ(twoBlocks, 1, x, 5.001)).toBeCloseTo(bilinear(x, 5.001) + 5, 12);
    expect(twoBlocks.qKnots).toEqual(new Float64Array([2, 3, 4, 5, 5, 7, 10, 20]));
    expect(twoBlocks.blockSizes).toEqual([4, 4]);
  });

  it('should fall back to bilinear interpolation in a block of two Q knots', () => {
    const square = (x: number) => Math.log(x) ** 2;
    const narrow = grid([{ qKnots: [2, 3] }], (x) => square(x));
    const [l0, l1] = [L_KNOTS[3], L_KNOTS[4]];
    // linear in log x between the knot values, where a cubic would bend towards L²
    expect(xfxQ(narrow, 21, Math.exp((l0 + l1) / 2), 2.5)).toBeCloseTo((l0 ** 2 + l1 ** 2) / 2, 12);
  });

  it('should treat PID 0 as the gluon and give 0 for partons the set lacks', () => {
    const x = xBetween(3, 0.5);
    expect(xfxQ(ONE_BLOCK, 0, x, 10)).toBe(xfxQ(ONE_BLOCK, 21, x, 10));
    expect(xfxQ(ONE_BLOCK, 22, x, 10)).toBe(0);
    expect(xfxQ(ONE_BLOCK, -6, x, 10)).toBe(0);
  });
});

describe('extrapolation', () => {
  const xMin = X_KNOTS[0];
  const q2Min = Q_KNOTS[0] ** 2;

  it('should continue a positive PDF below xMin and above Qmax as a power law (continuation)', () => {
    expect(xfxQ(ONE_BLOCK, 21, 1e-7, Q_KNOTS[3])).toBeCloseTo(powerLaw(1e-7, Q_KNOTS[3]), 12);
    expect(xfxQ(ONE_BLOCK, 21, X_KNOTS[4], 1e3)).toBeCloseTo(powerLaw(X_KNOTS[4], 1e3), 10);
    expect(xfxQ(ONE_BLOCK, 21, 1e-6, 1e3)).toBeCloseTo(powerLaw(1e-6, 1e3), 10);
  });

  it('should continue a negative PDF linearly in log x and log Q²', () => {
    expect(xfxQ(ONE_BLOCK, 1, 1e-7, Q_KNOTS[3])).toBeCloseTo(bilinear(1e-7, Q_KNOTS[3]), 12);
    expect(xfxQ(ONE_BLOCK, 1, X_KNOTS[2], 500)).toBeCloseTo(bilinear(X_KNOTS[2], 500), 12);
  });

  it('should make the PDF vanish towards Q = 0 with its anomalous dimension at Qmin', () => {
    const x = X_KNOTS[5];
    const atMin = bilinear(x, Q_KNOTS[0]);
    const gamma = (bilinear(x, Math.sqrt(1.01 * q2Min)) - atMin) / atMin / 0.01;
    for (const q of [1.5, 0.5, 0.01]) {
      const ratio = (q * q) / q2Min;
      expect(xfxQ(ONE_BLOCK, 1, x, q)).toBeCloseTo(
        atMin * ratio ** (gamma * ratio + 1 - ratio),
        12,
      );
    }
    expect(xfxQ(ONE_BLOCK, 1, x, 0)).toBe(-0);
  });

  it('should clamp to the grid edge with nearest, and refuse with error', () => {
    expect(xfxQ(ONE_BLOCK, 2, 1e-7, 1e3, { extrapolation: 'nearest' })).toBe(
      xfxQ(ONE_BLOCK, 2, xMin, Q_KNOTS[6]),
    );
    expect(() => xfxQ(ONE_BLOCK, 2, 1e-7, 10, { extrapolation: 'error' })).toThrow(
      /^x, Q: \(1e-7, 10 GeV\) is outside the grid of Synthetic_0000\.dat: x in \[/,
    );
    expect(() => xfxQ(ONE_BLOCK, 2, 0.7, 10)).toThrow(/^x: 0\.7 is above the grid's last x knot/);
  });

  it('should reject x outside (0, 1] and a negative or NaN scale', () => {
    for (const [x, q] of [
      [0, 10],
      [1.5, 10],
      [Number.NaN, 10],
      [0.1, Number.NaN],
    ] as const) {
      expect(() => xfxQ(ONE_BLOCK, 2, x, q)).toThrow(InvalidArgumentError);
    }
    expect(() => xfxQ2(ONE_BLOCK, 2, 0.1, -1)).toThrow(/expected a finite scale ≥ 0, got Q² = -1/);
  });
});

describe('ForcePositive', () => {
  it('should clip negative values as the set asks, unless the member header overrides it', async () => {
    const text = (header?: string) =>
      memberText({
        xKnots: X_KNOTS,
        blocks: [{ qKnots: Q_KNOTS }],
        pids: PIDS,
        value: byPid,
        ...(header === undefined ? {} : { header }),
      });
    const folder = await writeSet(
      'Clipped',
      infoText({ pids: PIDS, numMembers: 2, extra: 'ForcePositive: 1' }),
      [text(), text('PdfType: replica\nForcePositive: 2')],
    );
    const set = await loadLhapdfSet(folder);
    const [zero, one] = await Promise.all([loadLhapdfMember(set, 0), loadLhapdfMember(set, 1)]);
    const x = xBetween(2, 0.5);
    expect(xfxQ(zero, 1, x, 10)).toBe(0);
    expect(xfxQ(one, 1, x, 10)).toBe(1e-10);
    expect(xfxQ(zero, 2, x, 10)).toBe(xfxQ(ONE_BLOCK, 2, x, 10));
  });
});
