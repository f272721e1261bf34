import {
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
  InvalidArgumentError,
  rotateFlavours,
} from '@partonfit/core';
import type { LhapdfGrid } from './lhapdf-grid.js';
import type { LhapdfExtrapolation } from './lhapdf-set.js';
import { interpolateLogBicubic } from './log-bicubic.js';

/** Options of the x·f evaluations. */
export interface XfOptions {
  /** What to do outside the grid; defaults to the set's `Extrapolator` (LHAPDF: continuation). */
  readonly extrapolation?: LhapdfExtrapolation;
}

/**
 * LHAPDF's continuation step between two points (xl, yl), (xh, yh), evaluated at x: linear in
 * log x, applied to log y when both values exceed 10⁻³ (a power law that stays positive).
 */
function continueLinear(x: number, xl: number, xh: number, yl: number, yh: number): number {
  const fraction = (Math.log(x) - Math.log(xl)) / (Math.log(xh) - Math.log(xl));
  if (yl > 1e-3 && yh > 1e-3)
    return Math.exp(Math.log(yl) + fraction * (Math.log(yh) - Math.log(yl)));
  return yl + fraction * (yh - yl);
}

/** LHAPDF's `continuation` extrapolator (see {@link LhapdfExtrapolation}) for one column. */
function continuation(grid: LhapdfGrid, column: number, x: number, q2: number): number {
  const { xKnots, q2Knots } = grid;
  const ipol = (xAt: number, q2At: number) => interpolateLogBicubic(grid, column, xAt, q2At);
  const xMin = xKnots[0];
  const xMin1 = xKnots[1];
  const xMax = xKnots[xKnots.length - 1];
  const q2Min = q2Knots[0];
  const q2Max = q2Knots[q2Knots.length - 1];
  const q2Max1 = q2Knots[q2Knots.length - 2];
  if (x > xMax) {
    throw new InvalidArgumentError({
      argument: 'x',
      problem: `${x} is above the grid's last x knot ${xMax} (${grid.file}); LHAPDF does not extrapolate there`,
    });
  }
  if (q2 < q2Min) {
    const atX = (q2At: number) =>
      x < xMin
        ? continueLinear(x, xMin, xMin1, ipol(xMin, q2At), ipol(xMin1, q2At))
        : ipol(x, q2At);
    const atMin = atX(q2Min);
    const anomalous =
      Math.abs(atMin) >= 1e-5 ? Math.max(-2.5, (atX(1.01 * q2Min) - atMin) / atMin / 0.01) : 1;
    const ratio = q2 / q2Min;
    return atMin * ratio ** (anomalous * ratio + 1 - ratio);
  }
  const inQ2 = (xAt: number) =>
    q2 > q2Max
      ? continueLinear(q2, q2Max, q2Max1, ipol(xAt, q2Max), ipol(xAt, q2Max1))
      : ipol(xAt, q2);
  if (x < xMin) return continueLinear(x, xMin, xMin1, inQ2(xMin), inQ2(xMin1));
  return inQ2(x);
}

function outsideError(grid: LhapdfGrid, x: number, q2: number): InvalidArgumentError {
  const { xKnots, qKnots } = grid;
  return new InvalidArgumentError({
    argument: 'x, Q',
    problem: `(${x}, ${Math.sqrt(q2)} GeV) is outside the grid of ${grid.file}: x in [${xKnots[0]}, ${xKnots[xKnots.length - 1]}], Q in [${qKnots[0]}, ${qKnots[qKnots.length - 1]}] GeV, and extrapolation is 'error'`,
  });
}

function checkPoint(x: number, q2: number): void {
  if (!(x > 0 && x <= 1)) {
    throw new InvalidArgumentError({
      argument: 'x',
      problem: `expected a momentum fraction in (0, 1], got ${x}`,
    });
  }
  if (!(q2 >= 0 && Number.isFinite(q2))) {
    throw new InvalidArgumentError({
      argument: 'Q',
      problem: `expected a finite scale ≥ 0, got Q² = ${q2}`,
    });
  }
}

/** x·f of column `column` at (x, Q²), inside or outside the grid. */
function xfAtColumn(
  grid: LhapdfGrid,
  column: number,
  x: number,
  q2: number,
  options: XfOptions,
): number {
  const { xKnots, q2Knots } = grid;
  const clampedX = Math.min(Math.max(x, xKnots[0]), xKnots[xKnots.length - 1]);
  const clampedQ2 = Math.min(Math.max(q2, q2Knots[0]), q2Knots[q2Knots.length - 1]);
  let value: number;
  if (clampedX === x && clampedQ2 === q2) {
    value = interpolateLogBicubic(grid, column, x, q2);
  } else {
    const extrapolation = options.extrapolation ?? grid.set.extrapolation;
    if (extrapolation === 'error') throw outsideError(grid, x, q2);
    value =
      extrapolation === 'nearest'
        ? interpolateLogBicubic(grid, column, clampedX, clampedQ2)
        : continuation(grid, column, x, q2);
  }
  if (grid.forcePositive === 1) return Math.max(value, 0);
  if (grid.forcePositive === 2) return Math.max(value, 1e-10);
  return value;
}

/** The column of PDG id `pid` in the grid (0 counts as the gluon 21), or -1 when absent. */
function columnOf(grid: LhapdfGrid, pid: number): number {
  return grid.pids.indexOf(pid === 0 ? 21 : pid);
}

/**
 * x·f(x, Q²) of parton `pid` (PDG id; 0 is an alias of the gluon 21), as LHAPDF's `xfxQ2`:
 * log-bicubic interpolation inside the grid, the set's extrapolation outside it, then the
 * set's `ForcePositive`. A parton the set does not hold (e.g. the photon 22 in NNPDF4.0) is 0.
 *
 * @param grid - a member from {@link loadLhapdfMember}
 * @param pid - the PDG id
 * @param x - momentum fraction in (0, 1]
 * @param q2 - the scale Q² in GeV² (≥ 0)
 * @throws InvalidArgumentError for x outside (0, 1], a negative or non-finite Q², x above the
 *   grid's last knot, or a point outside the grid with extrapolation `error`
 */
export function xfxQ2(
  grid: LhapdfGrid,
  pid: number,
  x: number,
  q2: number,
  options: XfOptions = {},
): number {
  checkPoint(x, q2);
  const column = columnOf(grid, pid);
  return column === -1 ? 0 : xfAtColumn(grid, column, x, q2, options);
}

/**
 * x·f(x, Q) of parton `pid` at the scale Q in GeV: {@link xfxQ2} at Q², as LHAPDF's `xfxQ`.
 *
 * @example
 * ```ts typecheck-only
 * import { loadLhapdfMember, loadLhapdfSet, xfxQ } from '@partonfit/io';
 *
 * const set = await loadLhapdfSet('/path/to/LHAPDF/NNPDF40_nnlo_as_01180');
 * const central = await loadLhapdfMember(set, 0);
 * const xg = xfxQ(central, 21, 1e-3, 100); // x·g at x = 10⁻³, Q = 100 GeV
 * ```
 */
export function xfxQ(
  grid: LhapdfGrid,
  pid: number,
  x: number,
  q: number,
  options: XfOptions = {},
): number {
  return xfxQ2(grid, pid, x, q * q, options);
}

/**
 * x·f of all 14 partons of the flavour (LHA) basis on an x grid at one scale.
 *
 * @param grid - a member from {@link loadLhapdfMember}
 * @param xGrid - the x values (x)
 * @param q - the scale in GeV
 * @returns (x, flavour) row-major, flavours in `FLAVOUR_BASIS` order
 *   `TBAR, BBAR, CBAR, SBAR, UBAR, DBAR, GLUON, D, U, S, C, B, T, PHT` (the `.exportgrid` order);
 *   partons the set lacks are 0
 */
export function xfAtScale(
  grid: LhapdfGrid,
  xGrid: Float64Array,
  q: number,
  options: XfOptions = {},
): Float64Array {
  const flavours = FLAVOUR_BASIS.length;
  const result = new Float64Array(xGrid.length * flavours);
  const q2 = q * q;
  xGrid.forEach((x, ix) => {
    FLAVOUR_BASIS.forEach(({ pid }, flavour) => {
      result[ix * flavours + flavour] = xfxQ2(grid, pid, x, q2, options);
    });
  });
  return result;
}

/**
 * x·f in the 14-flavour evolution basis on an x grid at one scale — what FK tables multiply:
 * {@link xfAtScale} rotated by `FLAVOUR_TO_EVOLUTION`.
 *
 * @param grid - a member from {@link loadLhapdfMember}
 * @param xGrid - the x values (x), e.g. an FK table's x grid
 * @param q - the scale in GeV (for FK tables, their Q0)
 * @returns (x, flavour) row-major, flavours in `EVOLUTION_BASIS` order
 *   `γ, Σ, g, V, V3, V8, V15, V24, V35, T3, T8, T15, T24, T35`
 */
export function evolutionBasisXf(
  grid: LhapdfGrid,
  xGrid: Float64Array,
  q: number,
  options: XfOptions = {},
): Float64Array {
  return rotateFlavours(FLAVOUR_TO_EVOLUTION, xfAtScale(grid, xGrid, q, options));
}
