import { access, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAVOUR_BASIS } from '@partonfit/core';
import {
  applyEvolutionOperator,
  ekoEvolutionOperator,
  interpolateReplicas,
  readEkoOperator,
  type EkoOperator,
} from '@partonfit/evolution';
import { formatExportGrid, readExportGrid } from '@partonfit/fit-folder';
import { loadLhapdfMember, loadLhapdfSet, xfAtScale } from '@partonfit/io';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured as run } from './cli.fixture.js';

const EKO = `${SHARED_DATA}eko/LHCB_DY_13TEV_DIMUON.eko.tar`;
const CARD = `${SHARED_DATA}theory_cards/208.yaml`;
const NNPDF40 = `${SHARED_DATA}lhapdf/NNPDF40_nnlo_as_01180`;
const hasInputs =
  hasSharedData('eko/LHCB_DY_13TEV_DIMUON.eko.tar', 'partonfit evolve --eko') &&
  hasSharedData('theory_cards/208.yaml', 'partonfit evolve --eko') &&
  hasSharedData('lhapdf/NNPDF40_nnlo_as_01180', 'partonfit evolve --eko') &&
  hasSharedData('n3fit_reference/quickcard_1.exportgrid', 'partonfit evolve --eko');

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe.skipIf(!hasInputs)('partonfit evolve --eko', () => {
  let folder: string;
  let fit: string;
  let eko: EkoOperator;
  /** x·f of NNPDF4.0 members 0 and 1 at Q0 on the EKO's x-grid, (replicas, x, flavours). */
  let xf: Float64Array;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-evolve-eko-'));
    fit = join(folder, 'lhcb');
    eko = await readEkoOperator(EKO);
    const set = await loadLhapdfSet(NNPDF40);
    const size = eko.inputXGrid.length * FLAVOUR_BASIS.length;
    xf = new Float64Array(2 * size);
    for (const replica of [1, 2]) {
      const pdfGrid = xfAtScale(await loadLhapdfMember(set, replica - 1), eko.inputXGrid, 1.65);
      xf.set(pdfGrid, (replica - 1) * size);
      const replicaFolder = join(fit, 'nnfit', `replica_${replica}`);
      await mkdir(replicaFolder, { recursive: true });
      const text = formatExportGrid({ replica, q20: 1.65 ** 2, xGrid: eko.inputXGrid, pdfGrid });
      await writeFile(join(replicaFolder, 'lhcb.exportgrid'), text);
    }
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("should write the replicas at Q0 and at the EKO's scale, as the EKO evolves them", async () => {
    const result = await run('evolve', fit, '--eko', EKO, '--theory', CARD);
    expect(result.error).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('from Q0 = 1.65 GeV to 1.65000, 91.1535 GeV');
    const set = await loadLhapdfSet(join(fit, 'lhcb'));
    expect(set.numMembers).toBe(3);
    expect(set.orderQCD).toBe(1);
    const operator = ekoEvolutionOperator(eko, { xGrid: eko.inputXGrid, q0: 1.65, source: 'test' });
    const expected = applyEvolutionOperator(operator, xf, 2);
    const nx = eko.inputXGrid.length;
    const size = nx * FLAVOUR_BASIS.length;
    for (const replica of [1, 2]) {
      const member = await loadLhapdfMember(set, replica);
      expect(member.qKnots.length).toBe(2);
      expect(member.qKnots[0]).toBe(1.65);
      expect(member.qKnots[1]).toBeCloseTo(Math.sqrt(eko.q2Grid[0]), 6);
      for (const pid of [21, 2, -1, 5]) {
        const flavour = FLAVOUR_BASIS.findIndex((entry) => entry.pid === pid);
        const column = member.pids.indexOf(pid);
        for (const i of [10, 25, 40]) {
          const atQ0 = xf[(replica - 1) * size + i * FLAVOUR_BASIS.length + flavour];
          const evolved = expected[(replica - 1) * size + i * FLAVOUR_BASIS.length + flavour];
          const written = (q: number) => member.values[(i * 2 + q) * member.pids.length + column];
          expect(Math.abs(written(0) - atQ0)).toBeLessThanOrEqual(1e-7 * Math.abs(atQ0));
          expect(Math.abs(written(1) / evolved - 1)).toBeLessThan(1e-7);
        }
      }
    }
  });

  it('should refuse a fit on another x-grid, naming both grids, and interpolate it only when asked', async () => {
    const other = join(folder, 'quick');
    const exportGrid = join(other, 'nnfit', 'replica_1', 'quick.exportgrid');
    await mkdir(join(other, 'nnfit', 'replica_1'), { recursive: true });
    await copyFile(`${SHARED_DATA}n3fit_reference/quickcard_1.exportgrid`, exportGrid);
    const result = await run('evolve', other, '--eko', EKO, '--theory', CARD);
    expect(result.code).toBe(1);
    expect(result.error).toContain(
      "inputgrid: the EKO's input x-grid (50 points, 1.9999999999999954e-7 … 1) is not the x-grid of",
    );
    expect(result.error).toContain('(196 points, 1e-9 … 1)');
    expect(await exists(join(other, 'quick'))).toBe(false);

    const interpolated = await run(
      'evolve',
      other,
      '--eko',
      EKO,
      '--theory',
      CARD,
      '--interpolate-x',
    );
    expect(interpolated.error).toBe('');
    expect(interpolated.out).toContain('interpolated onto its 50-point x-grid');
    const member = await loadLhapdfMember(await loadLhapdfSet(join(other, 'quick')), 1);
    expect(member.xKnots.length).toBe(50);
    const grid = await readExportGrid(exportGrid);
    const onEkoGrid = interpolateReplicas(
      Float64Array.from(grid.pdfGrid),
      1,
      grid.xGrid,
      eko.inputXGrid,
    );
    const operator = ekoEvolutionOperator(eko, { xGrid: eko.inputXGrid, q0: 1.65, source: 'test' });
    const evolved = applyEvolutionOperator(operator, onEkoGrid, 1);
    const gluon = FLAVOUR_BASIS.findIndex((entry) => entry.pid === 21);
    const column = member.pids.indexOf(21);
    for (const i of [5, 25, 45]) {
      const index = i * FLAVOUR_BASIS.length + gluon;
      const written = (q: number) => member.values[(i * 2 + q) * member.pids.length + column];
      expect(Math.abs(written(0) / onEkoGrid[index] - 1)).toBeLessThan(1e-7);
      expect(Math.abs(written(1) / evolved[index] - 1)).toBeLessThan(1e-7);
    }
  });

  it('should refuse --q-grid with --eko and a card of another αs', async () => {
    const both = await run('evolve', fit, '--eko', EKO, '--theory', CARD, '--q-grid', CARD);
    expect(both.code).toBe(2);
    expect(both.error).toContain('--q-grid and --eko exclude each other');
    const card = join(folder, 'alphas.yaml');
    await writeFile(card, (await readFile(CARD, 'utf8')).replace('alphas: 0.118', 'alphas: 0.12'));
    const output = join(folder, 'refused');
    const refused = await run('evolve', fit, '--eko', EKO, '--theory', card, '--output', output);
    expect(refused.code).toBe(1);
    expect(refused.error).toMatch(/alphas: αs\(Q² = 8308.96\d* GeV²\) is 0.118009\d*, but/);
    expect(await exists(output)).toBe(false);
  });
});
