import {
  FLAVOUR_BASIS,
  flavourIndexOfPid,
  InvalidArgumentError,
  ShapeError,
} from '@partonfit/core';
import { writeLhapdfSet, type LhapdfMemberGrid } from '@partonfit/io';
import { strongCouplingOfTheory } from './strong-coupling.js';
import type { TheoryCard } from './theory-card.js';
import { maxPdfFlavours } from './thresholds.js';

/** Z mass (GeV) at which `AlphaS_MZ` is given. */
const MZ = 91.1876;

/** An evolved fit to write as an LHAPDF 6 set. */
export interface EvolvedSet {
  /** The set's name (its folder and file names). */
  readonly name: string;
  /** `SetDesc`. */
  readonly description: string;
  /** The theory the PDFs were evolved with: order, masses, αs. */
  readonly card: TheoryCard;
  /** The x knots (x). */
  readonly xGrid: ArrayLike<number>;
  /**
   * The scales (q) in GeV, as given to the evolution: a threshold repeated ends one LHAPDF
   * block and starts the next.
   */
  readonly qGrid: readonly number[];
  /** x·f, (replicas, q, x, flavours) row-major, flavours in `FLAVOUR_BASIS` order. */
  readonly values: Float64Array;
  /** The number of replicas. */
  readonly replicas: number;
}

/** The PDG ids written: b̄ … d̄, g, d … b for 5 flavours (NNPDF's columns). */
function pidsOf(maxNf: number): number[] {
  const quarks = Array.from({ length: maxNf }, (_, k) => k + 1);
  return [...quarks.map((pid) => -pid).reverse(), 21, ...quarks];
}

/** The sizes of the blocks of a Q grid split where a scale repeats. */
function blockSizesOf(qGrid: readonly number[]): number[] {
  const sizes = [1];
  for (let i = 1; i < qGrid.length; i++) {
    if (qGrid[i] === qGrid[i - 1]) sizes.push(1);
    else sizes[sizes.length - 1]++;
  }
  return sizes;
}

/**
 * Writes evolved replicas as an LHAPDF 6 set, atomically (`writeLhapdfSet`): member 0 the
 * replica average, members 1 … N the replicas (`ErrorType: replicas`), `lhagrid1` with one
 * subgrid block per flavour-number region (split where the Q grid repeats a threshold), the
 * quarks up to `MaxNfPdf` and the gluon, and the `.info` with the card's order, masses and αs
 * at every Q knot (`AlphaS_Qs`, `AlphaS_Vals`, `AlphaS_MZ`).
 *
 * @param folder - the folder that receives `<folder>/<name>`
 * @param set - the evolved replicas, e.g. from {@link evolvePdfs} or {@link applyEvolutionOperator}
 * @returns the set's folder
 * @throws ShapeError when `values` does not fit the grids
 * @throws InvalidArgumentError for a Q grid with a block of fewer than 2 scales
 */
export async function writeEvolvedLhapdfSet(folder: string, set: EvolvedSet): Promise<string> {
  const { card, xGrid, qGrid, values, replicas } = set;
  const nx = xGrid.length;
  const nq = qGrid.length;
  const flavours = FLAVOUR_BASIS.length;
  if (values.length !== replicas * nq * nx * flavours) {
    throw new ShapeError({
      quantity: 'values',
      expected: [replicas, nq, nx, flavours],
      actual: [values.length],
      axes: '(replicas, q, x, flavours)',
    });
  }
  const blockSizes = blockSizesOf(qGrid);
  if (blockSizes.some((size) => size < 2)) {
    throw new InvalidArgumentError({
      argument: 'qGrid',
      problem: `every LHAPDF block needs 2 scales or more, got blocks of ${blockSizes.join(', ')}`,
    });
  }
  const flavourCount = maxPdfFlavours(card);
  const pids = pidsOf(flavourCount);
  const columns = pids.map(flavourIndexOfPid);
  const member = (weight: (replica: number) => number, replicaList: number[]) => {
    const grid = new Float64Array(nx * nq * pids.length);
    for (let i = 0; i < nx; i++) {
      for (let q = 0; q < nq; q++) {
        const out = (i * nq + q) * pids.length;
        columns.forEach((column, p) => {
          let sum = 0;
          for (const r of replicaList)
            sum += weight(r) * values[((r * nq + q) * nx + i) * flavours + column];
          grid[out + p] = sum;
        });
      }
    }
    return grid;
  };
  const all = Array.from({ length: replicas }, (_, r) => r);
  function* members(): Generator<LhapdfMemberGrid> {
    yield {
      pdfType: 'central',
      pids,
      xKnots: xGrid,
      qKnots: qGrid,
      blockSizes,
      values: member(() => 1 / replicas, all),
    };
    for (let r = 0; r < replicas; r++) {
      yield {
        pdfType: 'replica',
        pids,
        xKnots: xGrid,
        qKnots: qGrid,
        blockSizes,
        values: member(() => 1, [r]),
      };
    }
  }
  const coupling = strongCouplingOfTheory(card);
  return writeLhapdfSet(folder, {
    name: set.name,
    info: {
      description: set.description,
      orderQCD: card.order,
      errorType: 'replicas',
      numFlavors: flavourCount,
      flavorScheme: card.fixedFlavours === undefined ? 'variable' : 'fixed',
      mZ: MZ,
      masses: { charm: card.masses.charm, bottom: card.masses.bottom, top: card.masses.top },
      alphaS: {
        mZ: coupling.alphaS(MZ),
        orderQCD: card.order,
        type: 'ipol',
        qs: qGrid,
        values: qGrid.map((q) => coupling.alphaS(q)),
      },
    },
    members: members(),
  });
}
