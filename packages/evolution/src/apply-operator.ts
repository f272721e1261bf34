import {
  EVOLUTION_BASIS_SIZE,
  EVOLUTION_TO_FLAVOUR,
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
} from '@partonfit/core';
import { checkReplicaGrid } from './replica-grid.js';
import { multiplyDense } from './banded-product.js';
import type { EvolutionOperator } from './evolution-operator.js';

/**
 * Applies an evolution operator to many replicas at once: x·f at Q0 in the flavour basis
 * (n3fit's `.exportgrid` order `TBAR … T, PHT`) to x·f at every output scale.
 *
 * @param operator - from {@link buildEvolutionOperator}
 * @param xf - (replicas, x, flavours) row-major, 14 flavours in `FLAVOUR_BASIS` order, on the
 *   operator's x-grid
 * @param replicas - the number of replicas
 * @returns (replicas, q, x, flavours) row-major in the same flavour order; the photon is zero
 * @throws ShapeError when `xf` does not have replicas × x × 14 values
 */
export function applyEvolutionOperator(
  operator: EvolutionOperator,
  xf: Float64Array,
  replicas: number,
): Float64Array {
  const n = operator.xGrid.length;
  const flavours = FLAVOUR_BASIS.length;
  checkReplicaGrid(xf, replicas, n);
  const evolutionBasis = EVOLUTION_BASIS_SIZE;
  // (evolution flavour, x, replicas): each flavour's values as a matrix of columns per replica
  const input = new Float64Array(evolutionBasis * n * replicas);
  for (let r = 0; r < replicas; r++) {
    for (let j = 0; j < n; j++) {
      const offset = (r * n + j) * flavours;
      for (let e = 0; e < evolutionBasis; e++) {
        let sum = 0;
        for (let f = 0; f < flavours; f++)
          sum += FLAVOUR_TO_EVOLUTION.data[e * flavours + f] * xf[offset + f];
        input[(e * n + j) * replicas + r] = sum;
      }
    }
  }
  const qCount = operator.qGrid.length;
  const out = new Float64Array(replicas * qCount * n * flavours);
  const evolved = new Float64Array(evolutionBasis * n * replicas);
  operator.blocks.forEach((blocks, q) => {
    evolved.fill(0);
    for (const block of blocks) {
      const column = input.subarray(block.input * n * replicas, (block.input + 1) * n * replicas);
      const product = multiplyDense(block.matrix, column, n, n, replicas);
      const offset = block.output * n * replicas;
      for (let i = 0; i < product.length; i++) evolved[offset + i] += product[i];
    }
    for (let r = 0; r < replicas; r++) {
      for (let i = 0; i < n; i++) {
        const offset = ((r * qCount + q) * n + i) * flavours;
        for (let f = 0; f < flavours; f++) {
          let sum = 0;
          for (let e = 0; e < evolutionBasis; e++)
            sum +=
              EVOLUTION_TO_FLAVOUR.data[f * evolutionBasis + e] *
              evolved[(e * n + i) * replicas + r];
          out[offset + f] = sum;
        }
      }
    }
  });
  return out;
}
