import { FLAVOUR_BASIS, ShapeError } from '@partonfit/core';

/**
 * Checks that x·f holds every replica's values on an x-grid of `xPoints` points.
 *
 * @param xf - (replicas, x, flavours) row-major, 14 flavours in `FLAVOUR_BASIS` order
 * @throws ShapeError when `xf` does not have replicas × xPoints × 14 values
 */
export function checkReplicaGrid(xf: Float64Array, replicas: number, xPoints: number): void {
  const flavours = FLAVOUR_BASIS.length;
  if (xf.length !== replicas * xPoints * flavours) {
    throw new ShapeError({
      quantity: 'xf',
      expected: [replicas, xPoints, flavours],
      actual: [xf.length],
      axes: '(replicas, x, flavours)',
    });
  }
}
