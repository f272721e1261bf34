import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FLAVOUR_BASIS } from '@partonfit/core';
import { evolvePdfs, parseTheoryCard } from '@partonfit/evolution';
import { readExportGrid } from '@partonfit/fit-folder';
import { loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { runCaptured as run } from './cli.fixture.js';

const EXPORTGRID = 'n3fit_reference/quickcard_1.exportgrid';
const hasInputs =
  hasSharedData(EXPORTGRID, 'an n3fit exportgrid') &&
  hasSharedData('theory_cards/200.yaml', 'theory card 200');
const Q_GRID = [1.65, 2, 4.92, 4.92, 10, 100];

describe.skipIf(!hasInputs)('partonfit evolve', () => {
  let folder: string;
  let fit: string;
  let card: string;
  let qGrid: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-evolve-'));
    // the operator cache goes to the temporary folder, never the user's
    vi.stubEnv('XDG_CACHE_HOME', folder);
    fit = join(folder, 'quick');
    for (const replica of [1, 2]) {
      const replicaFolder = join(fit, 'nnfit', `replica_${replica}`);
      await mkdir(replicaFolder, { recursive: true });
      await copyFile(`${SHARED_DATA}${EXPORTGRID}`, join(replicaFolder, 'quick.exportgrid'));
    }
    // theory 200 at LO with the exact solution: quick, and the same code path
    const text = (await readFile(`${SHARED_DATA}theory_cards/200.yaml`, 'utf8'))
      .replace('PTO: 2', 'PTO: 0')
      .replace('ModEv: TRN', 'ModEv: EXA');
    card = join(folder, 'lo.yaml');
    await writeFile(card, text);
    qGrid = join(folder, 'q-grid.yaml');
    await writeFile(qGrid, `${JSON.stringify(Q_GRID)}\n`);
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(folder, { recursive: true, force: true });
  });

  it("should write an LHAPDF set of the fit's replicas and their average, as evolvePdfs evolves them", async () => {
    const result = await run('evolve', fit, '--theory', card, '--q-grid', qGrid);
    expect(result.error).toBe('building the evolution operator: scale 6/6\n');
    expect(result.code).toBe(0);
    expect(result.out).toContain('evolving 2 replica(s) of quick (nnfit) from Q0 = 1.65 GeV');
    const set = await loadLhapdfSet(join(fit, 'quick'));
    expect(set.numMembers).toBe(3);
    expect(set.orderQCD).toBe(0);
    const member = await loadLhapdfMember(set, 1);
    expect(member.blockSizes).toEqual([3, 3]);
    const grid = await readExportGrid(join(fit, 'nnfit', 'replica_1', 'quick.exportgrid'));
    const theory = parseTheoryCard(await readFile(card, 'utf8'), card);
    const expected = evolvePdfs(
      theory,
      { xGrid: grid.xGrid, qGrid: Q_GRID },
      Float64Array.from(grid.pdfGrid),
      1,
    );
    const gluon = FLAVOUR_BASIS.findIndex((entry) => entry.pid === 21);
    const nx = grid.xGrid.length;
    const column = member.pids.indexOf(21);
    for (const i of [20, 100, 150]) {
      const value = expected[(5 * nx + i) * FLAVOUR_BASIS.length + gluon];
      const written = member.values[(i * Q_GRID.length + 5) * member.pids.length + column];
      expect(Math.abs(written / value - 1)).toBeLessThan(1e-7);
    }
  });

  it('should skip an nnfit replica without an exportgrid (diverged), and say so', async () => {
    const diverged = join(fit, 'nnfit', 'replica_3');
    await mkdir(diverged);
    const output = await mkdtemp(join(folder, 'diverged-'));
    const result = await run(
      'evolve',
      fit,
      '--theory',
      card,
      '--q-grid',
      qGrid,
      '--output',
      output,
    );
    await rm(diverged, { recursive: true });
    expect(result.code).toBe(0);
    expect(result.out).toContain('note: replica 3 of nnfit/ without an exportgrid\n');
    expect(result.out).toContain('evolving 2 replica(s) of quick (nnfit)');
    expect((await loadLhapdfSet(join(output, 'quick'))).numMembers).toBe(3);
  });

  it("should hold NNPDF's threshold knots unless --threshold-knots matched", async () => {
    // theory 200 as NNPDF4.0 (NNLO): there the two conventions differ at mb
    const nnlo = join(folder, 'nnlo.yaml');
    await copyFile(`${SHARED_DATA}theory_cards/200.yaml`, nnlo);
    const scales = [1.65, 4.92, 4.92, 10];
    const knotGrid = join(folder, 'knots.yaml');
    await writeFile(knotGrid, `${JSON.stringify(scales)}\n`);
    const grid = await readExportGrid(join(fit, 'nnfit', 'replica_1', 'quick.exportgrid'));
    const theory = parseTheoryCard(await readFile(nnlo, 'utf8'), nnlo);
    const gluon = FLAVOUR_BASIS.findIndex((entry) => entry.pid === 21);
    const nx = grid.xGrid.length;
    const upperGluon = async (output: string) => {
      const member = await loadLhapdfMember(await loadLhapdfSet(join(output, 'quick')), 1);
      const column = member.pids.indexOf(21);
      return (i: number) => member.values[(i * scales.length + 2) * member.pids.length + column];
    };
    const written: Record<string, (i: number) => number> = {};
    for (const [flag, thresholdKnots] of [
      [[], 'evolven3fit'],
      [['--threshold-knots', 'matched'], 'consistent'],
    ] as const) {
      const output = await mkdtemp(join(folder, 'knots-'));
      const args = ['--theory', nnlo, '--q-grid', knotGrid, '--output', output, ...flag];
      expect((await run('evolve', fit, ...args)).code).toBe(0);
      const at = await upperGluon(output);
      written[thresholdKnots] = at;
      const expected = evolvePdfs(
        theory,
        { xGrid: grid.xGrid, qGrid: scales, thresholdKnots },
        Float64Array.from(grid.pdfGrid),
        1,
      );
      for (const i of [20, 100, 150]) {
        const value = expected[(2 * nx + i) * FLAVOUR_BASIS.length + gluon];
        expect(Math.abs(at(i) / value - 1)).toBeLessThan(1e-7);
      }
    }
    // the upper copy of mb: the 4-flavour gluon (NNPDF's) against the matched 5-flavour one
    expect(Math.abs(written.consistent(20) / written.evolven3fit(20) - 1)).toBeGreaterThan(1e-3);
    const wrong = await run('evolve', fit, '--theory', nnlo, '--threshold-knots', 'apfel');
    expect(wrong.code).toBe(2);
    expect(wrong.error).toContain("--threshold-knots: expected nnpdf or matched, got 'apfel'");
    const withEko = await run('evolve', fit, '--eko', 'x.tar', '--threshold-knots', 'nnpdf');
    expect(withEko.code).toBe(2);
    expect(withEko.error).toContain("--threshold-knots applies to partonfit's own evolution");
  });

  it('should be a usage error without --theory and a runcard, and refuse a card of another Q0', async () => {
    const interpolateAlone = await run('evolve', fit, '--interpolate-x');
    expect(interpolateAlone.code).toBe(2);
    expect(interpolateAlone.error).toContain('--interpolate-x needs --eko <EKO tar>');
    const missing = await run('evolve', fit);
    expect(missing.code).toBe(2);
    expect(missing.error).toContain(
      `partonfit evolve: no theory card: pass --theory <theory card> (${fit} has no runcard.yml to name one)`,
    );
    const otherQ0 = join(folder, 'q0.yaml');
    await writeFile(otherQ0, (await readFile(card, 'utf8')).replace('Q0: 1.65', 'Q0: 1.0'));
    const refused = await run('evolve', fit, '--theory', otherQ0, '--q-grid', qGrid);
    expect(refused.code).toBe(1);
    expect(refused.error).toContain('quick.exportgrid: q20: Q0 = 1.65 GeV');
  });
});
