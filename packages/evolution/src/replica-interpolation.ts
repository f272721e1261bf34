import { FLAVOUR_BASIS } from '@partonfit/core';
import { DEFAULT_INTERPOLATION_DEGREE } from './evolution-run.js';
import { interpolationMatrix, logLagrangeBasis } from './interpolation.js';
import { checkReplicaGrid } from './replica-grid.js';

/**
 * Interpolates every replica's x·f from one x-grid to other x values: piecewise Lagrange in
 * ln x through `degree + 1` knots ({@link logLagrangeBasis}), the interpolation eko and
 * evolven3fit use (degree 4 by default).
 *
 * @param xf - (replicas, x, flavours) row-major on `xGrid`, 14 flavours in `FLAVOUR_BASIS` order
 * @param replicas - the number of replicas
 * @param xGrid - the knots of `xf` (x): increasing, ending at 1
 * @param points - the x values to interpolate to (points), inside [xGrid[0], 1]
 * @param degree - the polynomial degree
 * @returns (replicas, points, flavours) row-major
 * @throws ShapeError when `xf` does not fit the grid
 * @throws InvalidArgumentError for a grid that does not end at 1 or a point outside it
 */
export function interpolateReplicas(
  xf: Float64Array,
  replicas: number,
  xGrid: ArrayLike<number>,
  points: ArrayLike<number>,
  degree = DEFAULT_INTERPOLATION_DEGREE,
): Float64Array {
  const n = xGrid.length;
  checkReplicaGrid(xf, replicas, n);
  const weights = interpolationMatrix(logLagrangeBasis(xGrid, degree), points);
  const flavours = FLAVOUR_BASIS.length;
  const out = new Float64Array(replicas * points.length * flavours);
  for (let r = 0; r < replicas; r++) {
    for (let p = 0; p < points.length; p++) {
      const target = (r * points.length + p) * flavours;
      for (let j = 0; j < n; j++) {
        const weight = weights[p * n + j];
        if (weight === 0) continue;
        const source = (r * n + j) * flavours;
        for (let f = 0; f < flavours; f++) out[target + f] += weight * xf[source + f];
      }
    }
  }
  return out;
}
