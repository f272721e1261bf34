import {
  EVOLUTION_BASIS_SIZE,
  EVOLUTION_TO_FLAVOUR,
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
  flavourIndexOfPid,
  InputFileError,
  UnsupportedInputError,
} from '@partonfit/core';
import type { EvolutionOperator, OperatorBlock } from '../evolution-operator.js';
import type { EkoOperator } from './eko-operator.js';

/** Relative tolerance within which two x knots or two Q0 are the same. */
const GRID_TOLERANCE = 1e-8;

/** The PDFs an EKO is applied to: their x-grid and scale. */
export interface EkoInput {
  /** The x knots of the PDFs (x), e.g. the fit's exportgrid x-grid. */
  readonly xGrid: ArrayLike<number>;
  /** The scale of the PDFs in GeV, e.g. the fit's Q0. */
  readonly q0: number;
  /** Where the PDFs come from (a file or fit folder), for error messages. */
  readonly source: string;
}

function sameGrid(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (Math.abs(a[i] / b[i] - 1) > GRID_TOLERANCE) return false;
  }
  return true;
}

function describeGrid(grid: ArrayLike<number>): string {
  return `${grid.length} points, ${grid[0]} … ${grid[grid.length - 1]}`;
}

/** Refuses PDFs at another scale or on another x-grid than the EKO's input. */
function checkInput(eko: EkoOperator, input: EkoInput): void {
  if (Math.abs(eko.q0 / input.q0 - 1) > GRID_TOLERANCE) {
    throw new InputFileError({
      file: eko.file,
      key: 'q2_ref',
      problem: `the EKO starts at Q0 = ${eko.q0} GeV, but ${input.source} is at Q0 = ${input.q0} GeV`,
    });
  }
  if (!sameGrid(eko.inputXGrid, input.xGrid)) {
    throw new InputFileError({
      file: eko.file,
      key: 'inputgrid',
      problem:
        `the EKO's input x-grid (${describeGrid(eko.inputXGrid)}) is not the x-grid of ` +
        `${input.source} (${describeGrid(input.xGrid)}): an EKO applies only to PDFs on its ` +
        "own input grid (evolven3fit builds it on the fit's exportgrid x-grid)",
    });
  }
  if (!sameGrid(eko.targetXGrid, eko.inputXGrid)) {
    throw new UnsupportedInputError({
      file: eko.file,
      key: 'targetgrid',
      feature: 'a target x-grid other than the input x-grid',
      problem: `targetgrid has ${describeGrid(eko.targetXGrid)}, inputgrid ${describeGrid(eko.inputXGrid)}`,
    });
  }
}

/**
 * The EKO at target scale `q` in the evolution basis on x·f, (evolution out, x out, evolution
 * in, x in): R · O · R⁻¹ with R = `FLAVOUR_TO_EVOLUTION`, each entry scaled by x_i / x_j.
 */
function evolutionBasisSlice(eko: EkoOperator, q: number): Float64Array {
  const n = eko.inputXGrid.length;
  const flavours = FLAVOUR_BASIS.length;
  const basis = EVOLUTION_BASIS_SIZE;
  const sliceSize = flavours * n * flavours * n;
  const slice = eko.operators.subarray(q * sliceSize, (q + 1) * sliceSize);
  const targetColumns = eko.targetPids.map(flavourIndexOfPid);
  const inputRows = eko.inputPids.map(flavourIndexOfPid);
  // (evolution out, x out, flavour in, x in)
  const rotatedOut = new Float64Array(basis * n * flavours * n);
  const row = n * flavours * n;
  for (let a = 0; a < basis; a++) {
    targetColumns.forEach((column, c) => {
      const weight = FLAVOUR_TO_EVOLUTION.data[a * flavours + column];
      if (weight === 0) return;
      const from = slice.subarray(c * row, (c + 1) * row);
      const to = rotatedOut.subarray(a * row, (a + 1) * row);
      for (let k = 0; k < row; k++) to[k] += weight * from[k];
    });
  }
  const x = eko.inputXGrid;
  const out = new Float64Array(basis * n * basis * n);
  for (let a = 0; a < basis; a++) {
    for (let i = 0; i < n; i++) {
      const source = (a * n + i) * flavours * n;
      const target = (a * n + i) * basis * n;
      inputRows.forEach((flavour, d) => {
        for (let b = 0; b < basis; b++) {
          const weight = EVOLUTION_TO_FLAVOUR.data[flavour * basis + b];
          if (weight === 0) continue;
          for (let j = 0; j < n; j++)
            out[target + b * n + j] += (weight * rotatedOut[source + d * n + j] * x[i]) / x[j];
        }
      });
    }
  }
  return out;
}

/** The non-zero (x out, x in) blocks of an evolution-basis slice. */
function blocksOf(slice: Float64Array, n: number): OperatorBlock[] {
  const basis = EVOLUTION_BASIS_SIZE;
  const blocks: OperatorBlock[] = [];
  for (let output = 0; output < basis; output++) {
    for (let input = 0; input < basis; input++) {
      const matrix = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        const start = ((output * n + i) * basis + input) * n;
        matrix.set(slice.subarray(start, start + n), i * n);
      }
      if (matrix.some((value) => value !== 0)) blocks.push({ output, input, matrix });
    }
  }
  return blocks;
}

/** 3 + the heavy quarks (c, b, t) whose rows of the EKO at scale `q` are not all zero. */
function activeFlavoursAt(eko: EkoOperator, q: number): number {
  const n = eko.inputXGrid.length;
  const flavours = FLAVOUR_BASIS.length;
  const row = n * flavours * n;
  const base = q * flavours * row;
  let active = 3;
  for (const quark of [4, 5, 6]) {
    const produced = eko.targetPids.some((pid, c) => {
      if (Math.abs(pid) !== quark) return false;
      const rows = eko.operators.subarray(base + c * row, base + (c + 1) * row);
      return rows.some((value) => value !== 0);
    });
    if (produced) active++;
  }
  return active;
}

/**
 * Turns an EKO into an {@link EvolutionOperator} for PDFs given as x·f at the EKO's Q0 on its
 * input x-grid — so that {@link applyEvolutionOperator} evolves all replicas at once and
 * {@link writeEvolvedLhapdfSet} writes them. eko's operator maps f in the flavour basis; it is
 * rotated to the evolution basis (R · O · R⁻¹) and to x·f (entry (i, j) times x_i / x_j), and its
 * all-zero flavour blocks are dropped. The output scales are √`Q2grid`, αs the EKO's own, and the
 * active flavours at each scale 3 plus the heavy quarks the EKO produces there.
 *
 * @param eko - from {@link readEkoOperator}
 * @param input - the x-grid and scale of the PDFs it will be applied to
 * @throws InputFileError naming the EKO and its key `q2_ref` when its Q0 is not the PDFs' scale,
 *   or `inputgrid` (with both grids' sizes and ranges) when its input x-grid is not theirs
 * @throws UnsupportedInputError when the EKO's target x-grid differs from its input x-grid
 */
export function ekoEvolutionOperator(eko: EkoOperator, input: EkoInput): EvolutionOperator {
  checkInput(eko, input);
  const n = eko.inputXGrid.length;
  const scales = eko.q2Grid.length;
  const blocks: OperatorBlock[][] = [];
  const activeFlavours: number[] = [];
  for (let q = 0; q < scales; q++) {
    blocks.push(blocksOf(evolutionBasisSlice(eko, q), n));
    activeFlavours.push(activeFlavoursAt(eko, q));
  }
  return {
    xGrid: Float64Array.from(eko.inputXGrid),
    q0: eko.q0,
    qGrid: eko.q2Grid.map((q2) => Math.sqrt(q2)),
    activeFlavours,
    alphaS: Float64Array.from(eko.alphaS),
    blocks,
  };
}
