import { FLAVOUR_BASIS, SeededRandom, UnsupportedInputError } from '@partonfit/core';
import { loadLhapdfMember, loadLhapdfSet, xfAtScale } from '@partonfit/io';
import { inputFileError } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyEvolutionOperator } from '../apply-operator.js';
import { buildEvolutionOperator } from '../evolution-operator.js';
import { strongCouplingOfTheory } from '../strong-coupling.js';
import { readTheoryCard } from '../theory-card.js';
import { ekoEvolutionOperator } from './eko-evolution-operator.js';
import { readEkoOperator, type EkoOperator } from './eko-operator.js';

const FLAVOURS = FLAVOUR_BASIS.length;
const EKO_PIDS = [22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6];

/** Median and largest |a/b − 1| of one flavour over x in [1e-5, 0.9] where |b| > 1e-3. */
function relativeDifferences(
  evolved: Float64Array,
  reference: Float64Array,
  xGrid: Float64Array,
  flavour: number,
): { median: number; max: number } {
  const differences: number[] = [];
  xGrid.forEach((x, i) => {
    const expected = reference[i * FLAVOURS + flavour];
    if (x < 1e-5 || x > 0.9 || Math.abs(expected) < 1e-3) return;
    differences.push(Math.abs(evolved[i * FLAVOURS + flavour] / expected - 1));
  });
  differences.sort((a, b) => a - b);
  return {
    median: differences[differences.length >> 1],
    max: differences[differences.length - 1],
  };
}

/** A synthetic EKO on `xGrid`: O[a, i, b, j] = δ_ab · kernel[i, j], one target scale. */
function diagonalEko(xGrid: Float64Array, kernel: Float64Array, pids: number[]): EkoOperator {
  const n = xGrid.length;
  const operators = new Float64Array(FLAVOURS * n * FLAVOURS * n);
  for (let a = 0; a < FLAVOURS; a++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++)
        operators[((a * n + i) * FLAVOURS + a) * n + j] = kernel[i * n + j];
  return {
    file: 'diagonal.eko.tar',
    ekoVersion: '0.8.5',
    q0: 1.65,
    q2Grid: Float64Array.of(100),
    inputXGrid: xGrid,
    targetXGrid: xGrid,
    inputPids: pids,
    targetPids: pids,
    alphaS: Float64Array.of(0.2),
    operators,
  };
}

describe('ekoEvolutionOperator on synthetic EKOs', () => {
  const xGrid = Float64Array.from([1e-4, 1e-3, 1e-2, 0.1, 0.5, 1]);
  const n = xGrid.length;
  const random = new SeededRandom(7);
  const kernel = Float64Array.from({ length: n * n }, () => random.nextUint32() / 2 ** 32 - 0.5);
  const xf = Float64Array.from({ length: 2 * n * FLAVOURS }, () => random.nextUint32() / 2 ** 32);

  it('should map x·f as eko maps f: xf_out(x_i) = x_i Σ_j K[i, j] xf(x_j) / x_j, in any pid order', () => {
    const shuffled = [5, -3, 21, 22, 1, -6, 6, -1, 2, -5, 3, 4, -2, -4];
    for (const pids of [EKO_PIDS, shuffled]) {
      const operator = ekoEvolutionOperator(diagonalEko(xGrid, kernel, pids), {
        xGrid,
        q0: 1.65,
        source: 'the test',
      });
      expect([...operator.qGrid]).toEqual([10]);
      expect(operator.activeFlavours).toEqual([6]);
      const evolved = applyEvolutionOperator(operator, xf, 2);
      for (let r = 0; r < 2; r++) {
        for (let i = 0; i < n; i++) {
          for (let f = 0; f < FLAVOURS; f++) {
            let expected = 0;
            for (let j = 0; j < n; j++)
              expected += (kernel[i * n + j] * xf[(r * n + j) * FLAVOURS + f]) / xGrid[j];
            expected *= xGrid[i];
            const actual = evolved[(r * n + i) * FLAVOURS + f];
            expect(Math.abs(actual - expected)).toBeLessThan(
              1e-12 * Math.max(1, Math.abs(expected)),
            );
          }
        }
      }
    }
  });

  it('should refuse PDFs on another x-grid or at another Q0, naming both grids', () => {
    const eko = diagonalEko(xGrid, kernel, EKO_PIDS);
    const otherGrid = Float64Array.from([1e-9, 1e-3, 1]);
    const grid = inputFileError(() =>
      ekoEvolutionOperator(eko, { xGrid: otherGrid, q0: 1.65, source: 'fit/replica_1' }),
    );
    expect(grid.message).toBe(
      "diagonal.eko.tar: inputgrid: the EKO's input x-grid (6 points, 0.0001 … 1) is not the " +
        'x-grid of fit/replica_1 (3 points, 1e-9 … 1): an EKO applies only to PDFs on its own ' +
        "input grid (evolven3fit builds it on the fit's exportgrid x-grid)",
    );
    const scale = inputFileError(() =>
      ekoEvolutionOperator(eko, { xGrid, q0: Math.SQRT2, source: 'fit/replica_1' }),
    );
    expect(scale.key).toBe('q2_ref');
    expect(scale.message).toMatch(/starts at Q0 = 1.65 GeV, but fit\/replica_1 is at Q0 = 1.414/);
    const target = inputFileError(() =>
      ekoEvolutionOperator(
        { ...eko, targetXGrid: xGrid.map((x) => x / 2) },
        { xGrid, q0: 1.65, source: 'fit' },
      ),
    );
    expect(UnsupportedInputError.isInstance(target)).toBe(true);
    expect(target.key).toBe('targetgrid');
  });
});

const LHAPDF = 'lhapdf/NNPDF40_nnlo_as_01180';
const hasInputs =
  hasSharedData('eko/LHCB_DY_13TEV_DIMUON.eko.tar', 'EKO evolution of NNPDF4.0') &&
  hasSharedData(LHAPDF, 'EKO evolution of NNPDF4.0') &&
  hasSharedData('theory_cards/208.yaml', 'EKO evolution of NNPDF4.0');

describe.skipIf(!hasInputs)('the LHCb Drell–Yan EKO applied to NNPDF4.0 member 0', () => {
  let eko: EkoOperator;
  let xf0: Float64Array;
  let evolved: Float64Array;
  let reference: Float64Array;
  beforeAll(async () => {
    eko = await readEkoOperator(`${SHARED_DATA}eko/LHCB_DY_13TEV_DIMUON.eko.tar`);
    const member = await loadLhapdfMember(await loadLhapdfSet(`${SHARED_DATA}${LHAPDF}`), 0);
    xf0 = xfAtScale(member, eko.inputXGrid, 1.65);
    const operator = ekoEvolutionOperator(eko, {
      xGrid: eko.inputXGrid,
      q0: 1.65,
      source: 'NNPDF4.0',
    });
    evolved = applyEvolutionOperator(operator, xf0, 1);
    reference = xfAtScale(member, eko.inputXGrid, Math.sqrt(eko.q2Grid[0]));
  });

  it("should be an NLO operator (theory 208): αs and our own NLO evolution agree with eko's", async () => {
    const card = await readTheoryCard(`${SHARED_DATA}theory_cards/208.yaml`);
    const q = Math.sqrt(eko.q2Grid[0]);
    expect(Math.abs(strongCouplingOfTheory(card).alphaS(q) / eko.alphaS[0] - 1)).toBeLessThan(2e-6);
    const ours = applyEvolutionOperator(
      buildEvolutionOperator(card, { xGrid: eko.inputXGrid, qGrid: [q] }),
      xf0,
      1,
    );
    const far = ['GLUON', 'U', 'UBAR', 'D', 'S', 'C', 'B'].filter((name) => {
      const flavour = FLAVOUR_BASIS.findIndex((member) => member.name === name);
      const { median, max } = relativeDifferences(evolved, ours, eko.inputXGrid, flavour);
      return median > 2e-4 || max > 2e-3;
    });
    expect(far).toEqual([]);
  }, 120_000);

  it('should come within NNLO − NLO differences of the NNLO set at Q = 91.15 GeV', () => {
    const far = ['GLUON', 'U', 'UBAR', 'D', 'DBAR', 'S', 'C', 'B'].filter((name) => {
      const flavour = FLAVOUR_BASIS.findIndex((member) => member.name === name);
      const { median, max } = relativeDifferences(evolved, reference, eko.inputXGrid, flavour);
      return median > 0.04 || max > 0.1;
    });
    expect(far).toEqual([]);
  });
});
