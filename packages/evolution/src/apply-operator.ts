import {
  EVOLUTION_BASIS_SIZE,
  evolutionToFlavourAt,
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
} from '@partonfit/core';
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
  const toEvolution = nonZeroEntries(FLAVOUR_TO_EVOLUTION.data, evolutionBasis, flavours);
  // (evolution flavour, x, replicas): each flavour's values as a matrix of columns per replica
  const input = new Float64Array(evolutionBasis * n * replicas);
  for (let r = 0; r < replicas; r++) {
    for (let j = 0; j < n; j++) {
      const offset = (r * n + j) * flavours;
      for (let k = 0; k < toEvolution.values.length; k++) {
        input[(toEvolution.rows[k] * n + j) * replicas + r] +=
          toEvolution.values[k] * xf[offset + toEvolution.columns[k]];
      }
    }
  }
  const qCount = operator.qGrid.length;
  const out = new Float64Array(replicas * qCount * n * flavours);
  const evolved = new Float64Array(evolutionBasis * n * replicas);
  const product = new Float64Array(n * replicas);
  // (replicas, x, evolution flavour): the evolved values laid out for the rotation back
  const byPoint = new Float64Array(n * replicas * evolutionBasis);
  const flavourBlock = (e: number) => evolved.subarray(e * n * replicas, (e + 1) * n * replicas);
  operator.blocks.forEach((blocks, q) => {
    evolved.fill(0);
    for (const [matrix, byInput] of blocksByMatrix(blocks)) {
      const inputs = [...byInput.keys()];
      multiplyColumns(
        matrix,
        inputs.map((e) => input.subarray(e * n * replicas, (e + 1) * n * replicas)),
        n,
        replicas,
        product,
        (k, values) => {
          for (const output of byInput.get(inputs[k]) ?? []) {
            const target = flavourBlock(output);
            for (let i = 0; i < values.length; i++) target[i] += values[i];
          }
        },
      );
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

/** The non-zero entries of a (rows, columns) row-major rotation, as three parallel lists. */
function nonZeroEntries(
  matrix: ArrayLike<number>,
  rows: number,
  columns: number,
): { rows: Int32Array; columns: Int32Array; values: Float64Array } {
  const entries: number[][] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const value = matrix[row * columns + column];
      if (value !== 0) entries.push([row, column, value]);
    }
  }
  return {
    rows: Int32Array.from(entries, ([row]) => row),
    columns: Int32Array.from(entries, ([, column]) => column),
    values: Float64Array.from(entries, ([, , value]) => value),
  };
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

/**
 * M·inputs[k] for every k, each handed to `use(k, product)` in turn: M (x out, x in)
 * row-major, each input (x, replicas) row-major. Zero entries of M are skipped.
 */
function multiplyColumns(
  matrix: Float64Array,
  inputs: readonly Float64Array[],
  n: number,
  replicas: number,
  product: Float64Array,
  use: (k: number, product: Float64Array) => void,
): void {
  for (let k = 0; k < inputs.length; k++) {
    product.fill(0);
    multiplyInto(matrix, inputs[k], product, n, replicas);
    use(k, product);
  }
}

/**
 * product += M·input, M (n, n) and input (n, replicas) row-major; M's rows are read eight
 * entries at a time, and eight zeros (below an operator's band) are skipped.
 */
function multiplyInto(
  matrix: Float64Array,
  input: Float64Array,
  product: Float64Array,
  n: number,
  replicas: number,
): void {
  for (let i = 0; i < n; i++) {
    const rowOffset = i * n;
    const outOffset = i * replicas;
    let l = 0;
    for (; l + 7 < n; l += 8) {
      const m = rowOffset + l;
      const v0 = matrix[m];
      const v1 = matrix[m + 1];
      const v2 = matrix[m + 2];
      const v3 = matrix[m + 3];
      const v4 = matrix[m + 4];
      const v5 = matrix[m + 5];
      const v6 = matrix[m + 6];
      const v7 = matrix[m + 7];
      const zeros = v0 === 0 && v1 === 0 && v2 === 0 && v3 === 0;
      if (zeros && v4 === 0 && v5 === 0 && v6 === 0 && v7 === 0) continue;
      const s0 = l * replicas;
      for (let r = 0; r < replicas; r++) {
        const s = s0 + r;
        product[outOffset + r] +=
          v0 * input[s] +
          v1 * input[s + replicas] +
          v2 * input[s + 2 * replicas] +
          v3 * input[s + 3 * replicas] +
          v4 * input[s + 4 * replicas] +
          v5 * input[s + 5 * replicas] +
          v6 * input[s + 6 * replicas] +
          v7 * input[s + 7 * replicas];
      }
    }
    for (; l < n; l++) {
      const value = matrix[rowOffset + l];
      if (value === 0) continue;
      for (let r = 0; r < replicas; r++) product[outOffset + r] += value * input[l * replicas + r];
    }
  }
}
