import { beforeAll, describe, expect, it } from 'vitest';
import { FLAVOUR_BASIS } from '@partonfit/core';
import { loadLhapdfMember, loadLhapdfSet, type LhapdfGrid } from '@partonfit/io';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { evolvePdfs } from './evolve-pdfs.js';
import { logLagrangeBasis, mellinWeights } from './interpolation.js';
import { readTheoryCard } from './theory-card.js';

const NAME = 'NNPDF40_nnlo_as_01180';
const hasSet = hasSharedData(`lhapdf/${NAME}/${NAME}_0001.dat`, 'NNPDF4.0 LHAPDF set');
const hasCard = hasSharedData('theory_cards/200.yaml', 'theory card 200');

const FLAVOURS = FLAVOUR_BASIS.length;
/** The partons compared, by PDG id. */
const COMPARED: readonly [string, number][] = [
  ['g', 21],
  ['u', 2],
  ['ū', -2],
  ['d', 1],
  ['d̄', -1],
  ['s', 3],
  ['s̄', -3],
  ['c', 4],
  ['b', 5],
];
const Q_RANGES: readonly [number, number][] = [
  [1.65, 4.92],
  [4.92, 100],
  [100, 1e5],
];

/** x·f of a member at its first Q knot (Q0), (x, flavours) in FLAVOUR_BASIS order. */
function atQ0(grid: LhapdfGrid): Float64Array {
  const nx = grid.xKnots.length;
  const nq = grid.qKnots.length;
  const xf = new Float64Array(nx * FLAVOURS);
  grid.pids.forEach((pid, p) => {
    const f = FLAVOUR_BASIS.findIndex((member) => member.pid === pid);
    for (let i = 0; i < nx; i++) xf[i * FLAVOURS + f] = grid.values[i * nq * grid.pids.length + p];
  });
  return xf;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

describe.skipIf(!hasSet || !hasCard)('evolvePdfs against NNPDF4.0 (theory 200, TRN)', () => {
  let grids: LhapdfGrid[];
  let evolved: Float64Array;
  let qKnots: number[];

  beforeAll(async () => {
    const set = await loadLhapdfSet(`${SHARED_DATA}lhapdf/${NAME}`);
    grids = [await loadLhapdfMember(set, 0), await loadLhapdfMember(set, 1)];
    const card = await readTheoryCard(`${SHARED_DATA}theory_cards/200.yaml`);
    qKnots = Array.from(grids[0].qKnots);
    const xf = new Float64Array(2 * grids[0].xKnots.length * FLAVOURS);
    xf.set(atQ0(grids[0]), 0);
    xf.set(atQ0(grids[1]), grids[0].xKnots.length * FLAVOURS);
    // NNPDF4.0's grid holds the PDFs before the b matching, at αs(mb) of 5 flavours, at both
    // copies of mb (evolven3fit's APFEL convention)
    evolved = evolvePdfs(
      card,
      { xGrid: grids[0].xKnots, qGrid: qKnots, thresholdKnots: 'evolven3fit' },
      xf,
      2,
    );
  }, 300_000);

  it('should reproduce every Q node of members 0 and 1: median ≤ 1e-3, max ≤ 1e-2', () => {
    const nx = grids[0].xKnots.length;
    const nq = qKnots.length;
    const table: string[] = [];
    grids.forEach((grid, replica) => {
      const np = grid.pids.length;
      for (const [label, pid] of COMPARED) {
        const p = grid.pids.indexOf(pid);
        const f = FLAVOUR_BASIS.findIndex((member) => member.pid === pid);
        const all: number[] = [];
        const byRange = Q_RANGES.map(() => [] as number[]);
        for (let q = 1; q < nq; q++) {
          const reference = (i: number) => grid.values[(i * nq + q) * np + p];
          let largest = 0;
          for (let i = 0; i < nx; i++) {
            const x = grid.xKnots[i];
            if (x >= 1e-5 && x <= 0.9) largest = Math.max(largest, Math.abs(reference(i)));
          }
          const range = Q_RANGES.findIndex(([low, high]) => qKnots[q] > low && qKnots[q] <= high);
          for (let i = 0; i < nx; i++) {
            const x = grid.xKnots[i];
            if (x < 1e-5 || x > 0.9 || Math.abs(reference(i)) <= 1e-3 * largest) continue;
            const value = evolved[((replica * nq + q) * nx + i) * FLAVOURS + f];
            const difference = Math.abs(value / reference(i) - 1);
            all.push(difference);
            byRange[range].push(difference);
          }
        }
        table.push(
          `member ${replica} ${label.padEnd(2)} ` +
            byRange
              .map((values, r) =>
                values.length === 0
                  ? `${Q_RANGES[r].join('–')} GeV: –`
                  : `${Q_RANGES[r].join('–')} GeV: median ${median(values).toExponential(1)} max ${Math.max(...values).toExponential(1)}`,
              )
              .join(' | '),
        );
        expect(median(all), `${label} of member ${replica}`).toBeLessThanOrEqual(1e-3);
        // b at 5.5 GeV, right above mb, changes sign near x = 4e-5: there x·b = -1.3e-3 is what
        // is left of -0.12 (matching) + 0.12 (evolution), and our 1.4e-5 more is 1.1e-2 (member
        // 1; 7.8e-3 for 0). APFEL, which made NNPDF's grid, integrates the O(αs²) matching to
        // 1e-4 only, which lowers the matched x·b by ~1e-5; with that and its ODE tolerance at
        // 1e-7 it gives -1.30329e-3 there, ours -1.30259e-3, NNPDF -1.31704e-3 (see the README).
        const largest = label === 'b' ? 1.5e-2 : 1e-2;
        expect(Math.max(...all), `${label} of member ${replica}`).toBeLessThanOrEqual(largest);
      }
    });
    console.log(`relative differences to NNPDF4.0:\n${table.join('\n')}`);
  });

  it('should conserve the momentum sum rule to 1e-4 at every scale', () => {
    // The valence integrals from x = 1e-9 drift by up to 1e-3 here: NNPDF4.0's valence is not
    // small at x = 1e-9 and evolution carries it below the grid; the toy PDFs of
    // evolution-operator.test.ts check the valence sum rules.
    const basis = logLagrangeBasis(grids[0].xKnots, 4);
    const momentum = mellinWeights(basis, 2);
    const nx = grids[0].xKnots.length;
    const momentumAt = (q: number) => {
      let sum = 0;
      for (let i = 0; i < nx; i++) {
        const row = (q * nx + i) * FLAVOURS;
        for (let f = 0; f < FLAVOURS; f++) sum += momentum[i] * evolved[row + f];
      }
      return sum;
    };
    const start = momentumAt(0);
    expect(start).toBeCloseTo(1, 2);
    for (let q = 1; q < qKnots.length; q++) {
      expect(Math.abs(momentumAt(q) - start), `at Q = ${qKnots[q]}`).toBeLessThan(1e-4);
    }
  });
});
