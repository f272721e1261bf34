import {
  EVOLUTION_BASIS_SIZE,
  evolutionToFlavourAt,
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
  rotateFlavours,
} from '@partonfit/core';
import { addDenseProduct } from './banded-product.js';
import { checkReplicaGrid } from './replica-grid.js';
import type { EvolutionOperator, OperatorBlock } from './evolution-operator.js';

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
  const evolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, xf);
  // (evolution flavour, x, replicas): each flavour's values as a matrix of columns per replica
  const input = new Float64Array(evolutionBasis * n * replicas);
  for (let r = 0; r < replicas; r++) {
    for (let j = 0; j < n; j++) {
      for (let e = 0; e < evolutionBasis; e++) {
        input[(e * n + j) * replicas + r] = evolution[(r * n + j) * evolutionBasis + e];
      }
    }
  }
  const qCount = operator.qGrid.length;
  const out = new Float64Array(replicas * qCount * n * flavours);
  const evolved = new Float64Array(evolutionBasis * n * replicas);
  const product = new Float64Array(n * replicas);
  // (replicas, x, evolution flavour): the evolved values laid out for the rotation back
  const byPoint = new Float64Array(n * replicas * evolutionBasis);
  const inputBlock = (e: number) => input.subarray(e * n * replicas, (e + 1) * n * replicas);
  const flavourBlock = (e: number) => evolved.subarray(e * n * replicas, (e + 1) * n * replicas);
  operator.blocks.forEach((blocks, q) => {
    evolved.fill(0);
    for (const [matrix, byInput] of blocksByMatrix(blocks)) {
      for (const [e, outputs] of byInput) {
        product.fill(0);
        addDenseProduct(matrix, inputBlock(e), product, n, n, replicas);
        for (const output of outputs) {
          const target = flavourBlock(output);
          for (let i = 0; i < product.length; i++) target[i] += product[i];
        }
      }
    }
    for (let e = 0; e < evolutionBasis; e++) {
      for (let i = 0; i < n; i++) {
        for (let r = 0; r < replicas; r++) {
          byPoint[(r * n + i) * evolutionBasis + e] = evolved[(e * n + i) * replicas + r];
        }
      }
    }
    for (let r = 0; r < replicas; r++) {
      for (let i = 0; i < n; i++) {
        const offset = ((r * qCount + q) * n + i) * flavours;
        evolutionToFlavourAt(byPoint, (r * n + i) * evolutionBasis, out, offset);
      }
    }
  });
  return out;
}

/**
 * The blocks grouped by their matrix, then by their input, listing the outputs: many flavours
 * share a matrix (every T_k evolves alike), and a flavour not yet active copies Σ's product.
 */
function blocksByMatrix(
  blocks: readonly OperatorBlock[],
): Map<Float64Array, Map<number, number[]>> {
  const groups = new Map<Float64Array, Map<number, number[]>>();
  for (const block of blocks) {
    let byInput = groups.get(block.matrix);
    if (byInput === undefined) {
      byInput = new Map();
      groups.set(block.matrix, byInput);
    }
    const outputs = byInput.get(block.input);
    if (outputs === undefined) byInput.set(block.input, [block.output]);
    else outputs.push(block.output);
  }
  return groups;
}
