import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAVOUR_BASIS, InvalidArgumentError, ShapeError } from '@partonfit/core';
import { loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { evolvePdfs } from './evolve-pdfs.js';
import { writeEvolvedLhapdfSet } from './evolved-lhapdf-set.js';
import { strongCouplingOfTheory } from './strong-coupling.js';
import { toyPdfs, toyTheoryCard, X_GRID } from './toy-proton.fixture.js';

const FLAVOURS = FLAVOUR_BASIS.length;
const Q_GRID = [1.4, 1.51, 1.51, 2, 4.92, 4.92, 10, 100];

/** An independent reader of one lhagrid1 member: its blocks' knots and values, by hand. */
function readMemberByHand(text: string) {
  const blocks = text.split(/^---$/m).slice(1, -1);
  return blocks.map((block) => {
    const lines = block.trim().split('\n');
    const numbers = (line: string) => line.trim().split(/\s+/).map(Number);
    return {
      xs: numbers(lines[0]),
      qs: numbers(lines[1]),
      pids: numbers(lines[2]),
      rows: lines.slice(3).map(numbers),
    };
  });
}

describe('writeEvolvedLhapdfSet', () => {
  const card = toyTheoryCard('');
  let folder: string;
  let evolved: Float64Array;
  let setFolder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-evolved-'));
    evolved = evolvePdfs(card, { xGrid: X_GRID, qGrid: Q_GRID }, toyPdfs(2), 2);
    setFolder = await writeEvolvedLhapdfSet(folder, {
      name: 'toy_nnlo',
      description: 'toy proton evolved at NNLO',
      card,
      xGrid: X_GRID,
      qGrid: Q_GRID,
      values: evolved,
      replicas: 2,
    });
  }, 120_000);

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const ours = (replica: number, q: number, i: number, pid: number) =>
    evolved[
      ((replica * Q_GRID.length + q) * X_GRID.length + i) * FLAVOURS +
        FLAVOUR_BASIS.findIndex((member) => member.pid === pid)
    ];

  it("should be read back by partonfit's LHAPDF reader: knots, blocks, αs, replicas and their average", async () => {
    const set = await loadLhapdfSet(setFolder);
    expect(set.numMembers).toBe(3);
    expect(set.errorType).toBe('replicas');
    expect(set.flavours).toEqual([-5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5]);
    const coupling = strongCouplingOfTheory(card);
    (set.record.AlphaS_Vals as number[]).forEach((value, q) => {
      expect(value).toBeCloseTo(coupling.alphaS(Q_GRID[q]), 6);
    });
    const [average, first, second] = await Promise.all(
      [0, 1, 2].map((m) => loadLhapdfMember(set, m)),
    );
    expect(first.blockSizes).toEqual([2, 3, 3]);
    const np = first.pids.length;
    for (const [p, pid] of first.pids.entries()) {
      for (const i of [10, 50, 80]) {
        for (let q = 0; q < Q_GRID.length; q++) {
          const index = (i * Q_GRID.length + q) * np + p;
          const tolerance = 1e-7 * Math.max(1e-6, Math.abs(ours(0, q, i, pid)));
          expect(Math.abs(first.values[index] - ours(0, q, i, pid))).toBeLessThan(tolerance);
          expect(Math.abs(second.values[index] - ours(1, q, i, pid))).toBeLessThan(
            1e-7 * Math.max(1e-6, Math.abs(ours(1, q, i, pid))),
          );
          const mean = (ours(0, q, i, pid) + ours(1, q, i, pid)) / 2;
          expect(Math.abs(average.values[index] - mean)).toBeLessThan(
            1e-7 * Math.max(1e-6, Math.abs(mean)),
          );
        }
      }
    }
  });

  it('should hold b = 0 below mb and the matched b after it, read by an independent parser', async () => {
    const text = await readFile(join(setFolder, 'toy_nnlo_0001.dat'), 'utf8');
    const blocks = readMemberByHand(text);
    expect(blocks.map((block) => block.qs)).toEqual([
      [1.4, 1.51],
      [1.51, 2, 4.92],
      [4.92, 10, 100],
    ]);
    const b = blocks[1].pids.indexOf(5);
    const i = 30;
    // the last row of x-knot i in the block before mb, the first in the block after it
    expect(blocks[1].rows[i * 3 + 2][b]).toBeCloseTo(0, 12);
    expect(blocks[2].rows[i * 3][b]).toBeCloseTo(ours(0, 5, i, 5), 6);
    expect(ours(0, 5, i, 5)).not.toBe(0);
    expect(blocks[2].rows[i * 3 + 2][blocks[2].pids.indexOf(21)]).toBeCloseTo(ours(0, 7, i, 21), 4);
  });

  it('should refuse values that do not fit the grids and blocks of one scale', async () => {
    const base = { name: 'bad', description: 'x', card, xGrid: X_GRID, replicas: 2 };
    await expect(
      writeEvolvedLhapdfSet(folder, { ...base, qGrid: Q_GRID, values: new Float64Array(5) }),
    ).rejects.toThrow(ShapeError);
    await expect(
      writeEvolvedLhapdfSet(folder, {
        ...base,
        qGrid: [1.4, 1.51, 1.51],
        values: new Float64Array(2 * 3 * X_GRID.length * FLAVOURS),
      }),
    ).rejects.toThrow(InvalidArgumentError);
  });

  it('should write the NfFF quarks of a fixed-flavour-number scheme in one block', async () => {
    const ffns = toyTheoryCard('PTO: 0\nFNS: FFNS\nNfFF: 4\nIC: 1\n');
    const qGrid = [1.4, 10];
    const ffnsFolder = await writeEvolvedLhapdfSet(folder, {
      name: 'toy_ffns4',
      description: 'toy proton evolved at LO with 4 flavours',
      card: ffns,
      xGrid: X_GRID,
      qGrid,
      values: evolvePdfs(ffns, { xGrid: X_GRID, qGrid }, toyPdfs(1), 1),
      replicas: 1,
    });
    const set = await loadLhapdfSet(ffnsFolder);
    expect(set.flavours).toEqual([-4, -3, -2, -1, 21, 1, 2, 3, 4]);
    expect(set.record.NumFlavors).toBe(4);
    expect(set.record.FlavorScheme).toBe('fixed');
    const text = await readFile(join(ffnsFolder, 'toy_ffns4_0001.dat'), 'utf8');
    expect(readMemberByHand(text).map((block) => block.qs)).toEqual([qGrid]);
  });
});
