import { EVOLUTION_BASIS, FLAVOUR_BASIS, evolutionIndex } from '@partonfit/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { loadLhapdfMember, type LhapdfGrid } from './lhapdf-grid.js';
import { loadLhapdfSet, type LhapdfSet } from './lhapdf-set.js';
import { evolutionBasisXf, xfAtScale, xfxQ } from './xfx.js';

const NAME = 'NNPDF40_nnlo_as_01180';
const FOLDER = `${SHARED_DATA}lhapdf/${NAME}`;
const hasSet = hasSharedData(`lhapdf/${NAME}/${NAME}_0001.dat`, 'NNPDF4.0 LHAPDF set');

/** Columns of the member files: -5 … -1, 21, 1 … 5. */
const FILE_PIDS = [-5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5];
/** Quarks and antiquarks the set holds. */
const QUARKS = [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5];

/**
 * Σ over partons of ∫ w(pid) · x f dx from 1e-9 to 1 at scale q, by Simpson's rule in log x with
 * 24 panels per x-knot interval (x f dx = x f · x d log x).
 */
function integrate(
  grid: LhapdfGrid,
  q: number,
  weight: (pid: number) => number,
  power = 1,
): number {
  const logX = grid.logX;
  let total = 0;
  for (let i = 0; i + 1 < logX.length; i++) {
    const panels = 24;
    const h = (logX[i + 1] - logX[i]) / panels;
    for (let k = 0; k <= panels; k++) {
      const l = logX[i] + k * h;
      const x = Math.min(Math.exp(l), 1);
      const simpson = k === 0 || k === panels ? 1 : k % 2 === 1 ? 4 : 2;
      let sum = 0;
      for (const pid of FILE_PIDS) sum += weight(pid) * xfxQ(grid, pid, x, q);
      total += ((simpson * h) / 3) * sum * x ** power;
    }
  }
  return total;
}

describe.skipIf(!hasSet)('the NNPDF4.0 NNLO LHAPDF set', () => {
  let set: LhapdfSet;
  let central: LhapdfGrid;
  let replica: LhapdfGrid;
  beforeAll(async () => {
    set = await loadLhapdfSet(FOLDER);
    [central, replica] = await Promise.all([loadLhapdfMember(set, 0), loadLhapdfMember(set, 1)]);
  });

  it('should read the .info fields', () => {
    expect(set).toMatchObject({
      name: NAME,
      numMembers: 101,
      flavours: FILE_PIDS,
      xMin: 1e-9,
      xMax: 1,
      qMin: 1.65,
      qMax: 1e5,
      orderQCD: 2,
      alphaSMZ: 0.1180024,
      masses: { charm: 1.51, bottom: 4.92, top: 172.5 },
      errorType: 'replicas',
      forcePositive: 0,
      extrapolation: 'continuation',
    });
    expect(set.record.SetIndex).toBe(331100);
  });

  it('should read the members: 196 x knots, two Q blocks from 1.65 GeV split at the b mass', () => {
    expect(central.xKnots).toHaveLength(196);
    expect([central.xKnots[0], central.xKnots[195]]).toEqual([1e-9, 1]);
    expect(central.blockSizes).toEqual([12, 38]);
    expect([central.qKnots[0], central.qKnots[11], central.qKnots[12], central.qKnots[49]]).toEqual(
      [1.65, 4.92, 4.92, 1e5],
    );
    expect(central.pids).toEqual(FILE_PIDS);
    expect(central.header).toEqual({ PdfType: 'central', Format: 'lhagrid1' });
    expect(replica.header.FromMCReplica).toBe(367);
  });

  it('should return the table at knots: file lines 7, 1212 (block 1) and 6163, 8100 (block 2)', () => {
    // (x, Q) = (1e-9, 1.65), (x₁₀₀, Q₅), (x₁₀₀, 4.92 upper block), (x₁₅₀, 1e5); values copied
    // from those lines of NNPDF40_nnlo_as_01180_0000.dat
    const rows: [number, number, number[]][] = [
      [
        1e-9,
        1.65,
        [
          0, -1.6904794e-1, 1.424067, 1.4253536, 1.4249977, 1.4844111e-1, 1.4254154, 1.4257712,
          1.4236875, -1.6904794e-1, 0,
        ],
      ],
      [
        2.2588049e-1,
        2.5502944,
        [
          0, 1.0099428e-2, 1.4209869e-2, 3.2207865e-2, 5.1320158e-2, 4.1169396e-1, 3.2457515e-1,
          6.6521038e-1, 3.6428427e-2, 1.0047391e-2, 0,
        ],
      ],
      [
        2.2588049e-1,
        4.92,
        [
          0, 1.1131991e-2, 1.3766534e-2, 2.7938859e-2, 4.3410334e-2, 3.4860051e-1, 2.8838748e-1,
          6.0771855e-1, 3.271968e-2, 1.1056094e-2, 0,
        ],
      ],
      [
        6.2546313e-1,
        1e5,
        [
          3.1346565e-6, 2.3336e-4, 2.1934263e-4, 3.6061806e-4, 2.9319311e-4, 2.3485114e-4,
          9.9551375e-4, 1.0529953e-2, 4.9044264e-4, 2.3329557e-4, 3.1075066e-6,
        ],
      ],
    ];
    for (const [x, q, values] of rows) {
      expect(FILE_PIDS.map((pid) => xfxQ(central, pid, x, q))).toEqual(values);
    }
  });

  it('should agree between knots with an independent numpy implementation of logcubic', () => {
    // [pid, x, Q, member 0, member 1], from a separate float64 numpy re-implementation
    const points: [number, number, number, number, number][] = [
      [21, 1.234e-3, 1.65, 1.9373493685206333, 2.2574782994014067],
      [2, 0.1, 1.65, 0.6469134543039474, 0.6402853019292479],
      [1, 0.345, 1.65, 0.23321716862935735, 0.2248114454049463],
      [-3, 2.2e-6, 1.65, 0.6772317639619471, 0.6621848884091821],
      [21, 0.05, 10, 2.3582643093554814, 2.3684206327400967],
      [2, 0.3, 3, 0.5636087835649827, 0.5589375053995906],
      [1, 1e-4, 4.92, 1.1617089298566619, 1.1725648539439433],
      [1, 1e-4, 4.9, 1.1591187443274331, 1.1699187644290252],
      [4, 0.01, 100, 0.33947254785239617, 0.33777104933418955],
      [21, 0.999, 99000, 5.3400616584923676e-14, 2.2418294686676565e-13],
      [-2, 0.7, 2.236, 0.001785011097912299, 0.002562949795080606],
    ];
    for (const [pid, x, q, zero, one] of points) {
      expect(xfxQ(central, pid, x, q)).toBeCloseTo(zero, 13);
      expect(xfxQ(replica, pid, x, q)).toBeCloseTo(one, 13);
    }
  });

  it('should give x·d at Q² = 5 GeV² as FK_POSXDQ ⊗ member 0 does (data README)', () => {
    // FK-table predictions 1.24252, 1.05899, 0.90396 at the first three POSXDQ x values
    const xs = [5e-7, 1.940766723678e-6, 7.533150951473e-6];
    const expected = [1.24252, 1.05899, 0.90396];
    xs.forEach((x, i) => {
      expect(Math.abs(xfxQ(central, 1, x, Math.sqrt(5)) - expected[i])).toBeLessThan(1e-4);
    });
  });

  it('should satisfy the momentum sum rule at Q0 and, through Q interpolation, at 10 and 100 GeV', () => {
    // measured Σ∫x·f dx − 1: −1.8e-6 at Q0 (interpolation in x only), 3.6e-5 at 10 GeV and 5.0e-5
    // at 100 GeV (also in Q, between knots); the tolerances leave a factor 4–10 of margin
    expect(Math.abs(integrate(central, 1.65, () => 1) - 1)).toBeLessThan(2e-5);
    for (const q of [10, 100]) {
      expect(Math.abs(integrate(central, q, () => 1) - 1)).toBeLessThan(2e-4);
    }
  });

  it('should satisfy the valence sum rules u − ū = 2, d − d̄ = 1, s − s̄ = 0 at Q0 and 10 GeV', () => {
    // measured deviations: ≤ 2.0e-5 at Q0, ≤ 2.9e-4 at 10 GeV
    const valence = (quark: number) => (pid: number) =>
      pid === quark ? 1 : pid === -quark ? -1 : 0;
    for (const [q, tolerance] of [
      [1.65, 1e-4],
      [10, 1e-3],
    ] as const) {
      expect(Math.abs(integrate(central, q, valence(2), 0) - 2)).toBeLessThan(tolerance);
      expect(Math.abs(integrate(central, q, valence(1), 0) - 1)).toBeLessThan(tolerance);
      expect(Math.abs(integrate(central, q, valence(3), 0))).toBeLessThan(tolerance);
    }
  });

  it('should lay out xfAtScale as (x, flavour) in FLAVOUR_BASIS order', () => {
    const xGrid = new Float64Array([1e-5, 0.01, 0.3]);
    const values = xfAtScale(central, xGrid, 1.65);
    expect(values).toHaveLength(3 * 14);
    xGrid.forEach((x, ix) => {
      FLAVOUR_BASIS.forEach(({ pid }, flavour) => {
        const expected = Math.abs(pid) === 6 || pid === 22 ? 0 : xfxQ(central, pid, x, 1.65);
        expect(values[ix * 14 + flavour]).toBe(expected);
      });
    });
  });

  it('should rotate into the evolution basis: Σ, V, T3, T8, g, γ', () => {
    const xGrid = new Float64Array([1e-4, 0.1, 0.6]);
    const evolution = evolutionBasisXf(central, xGrid, 1.65);
    expect(evolution).toHaveLength(3 * EVOLUTION_BASIS.length);
    xGrid.forEach((x, ix) => {
      const f = (pid: number) => xfxQ(central, pid, x, 1.65);
      const plus = (quark: number) => f(quark) + f(-quark);
      const at = (name: Parameters<typeof evolutionIndex>[0]) =>
        evolution[ix * 14 + evolutionIndex(name)];
      expect(at('Sigma')).toBeCloseTo(
        QUARKS.reduce((sum, pid) => sum + f(pid), 0),
        14,
      );
      expect(at('V')).toBeCloseTo(
        QUARKS.reduce((sum, pid) => sum + Math.sign(pid) * f(pid), 0),
        14,
      );
      expect(at('T3')).toBeCloseTo(plus(2) - plus(1), 14);
      expect(at('T8')).toBeCloseTo(plus(2) + plus(1) - 2 * plus(3), 14);
      expect(at('g')).toBe(f(21));
      expect(at('photon')).toBe(0);
    });
  });
});
