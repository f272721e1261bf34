import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVOLUTION_TO_FLAVOUR, FLAVOUR_BASIS, rotateFlavours } from '@partonfit/core';
import { EXPORT_X_GRID, fitFolderPaths, formatExportGrid } from '@partonfit/fit-folder';
import { toyPdfXf } from '@partonfit/fktables';
import { loadLhapdfMember, loadLhapdfSet, xfxQ } from '@partonfit/io';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

const REPLICAS = 3;

/**
 * The fit folder `<output>/closure` of the embedded closure runcard (theory `toyLH-LO`, whose
 * Q0 is √2 GeV) with exportgrids of the Les Houches toy PDF scaled by 1 + 0.05·sin r at Q0² =
 * `q20` GeV² (by default the card's), without training a fit.
 */
async function toyFit(output: string, q20 = 2): Promise<string> {
  const toy = rotateFlavours(EVOLUTION_TO_FLAVOUR, toyPdfXf(EXPORT_X_GRID));
  for (let replica = 1; replica <= REPLICAS; replica++) {
    const paths = fitFolderPaths(output, 'closure', replica);
    await mkdir(paths.replicaFolder, { recursive: true });
    const pdfGrid = toy.map((value) => value * (1 + 0.05 * Math.sin(replica)));
    await writeFile(
      paths.exportGrid,
      formatExportGrid({ replica, q20, xGrid: EXPORT_X_GRID, pdfGrid }),
    );
  }
  const folder = join(output, 'closure');
  await copyFile(CLOSURE_RUNCARD, join(folder, 'runcard.yml'));
  return folder;
}

/** A row of a PDF figure's data. */
interface PdfRow {
  set: string;
  flavour: string;
  x: number;
  central: number;
}

describe('partonfit report --q', () => {
  let output: string;
  let fit: string;

  beforeAll(async () => {
    output = await mkdtemp(join(tmpdir(), 'partonfit-report-scales-'));
    // the operator cache goes to the temporary folder, never the user's
    vi.stubEnv('XDG_CACHE_HOME', output);
    fit = await toyFit(output);
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(output, { recursive: true, force: true });
  });

  it('should draw the PDFs at Q0 and at 100 GeV, each figure also as PNG, the operator build on standard error', async () => {
    const start = performance.now();
    const report = await run('report', fit, '--q', '1.4142,100', '--backend', 'cpu');
    const seconds = (performance.now() - start) / 1000;
    console.info(
      `partonfit report --q 1.4142,100 of ${REPLICAS} replicas: ${seconds.toFixed(1)} s`,
    );
    // off a terminal, the build's progress is a plain line at the last scale
    expect(report.error).toBe('building the evolution operator: scale 1/1\n');
    expect(report.code).toBe(0);
    expect(report.out).toContain(
      'evolving the PDFs from Q0 = 1.4142135623730951 GeV to Q = 100 GeV with embedded theory card toyLH-LO at LO (EXA)\n',
    );
    expect(report.out).toMatch(/built the evolution operator in [\d.]+ s, cached in /);
    expect(report.out).toContain(
      'report of closure: summary, pdfs, pdfs-q100, effective-exponents, closure; 10 figures',
    );
    const folder = join(fit, 'report');
    const figures = await readdir(join(folder, 'figures'));
    expect(figures.filter((file) => file.endsWith('-q100.png')).sort()).toEqual([
      'pdf-evolution-linearx-q100.png',
      'pdf-evolution-logx-q100.png',
      'pdf-flavour-linearx-q100.png',
      'pdf-flavour-logx-q100.png',
    ]);
    expect(figures.filter((file) => file.endsWith('.png'))).toHaveLength(10);
    expect(figures.filter((file) => file.endsWith('.svg'))).toHaveLength(10);
  });

  it("should draw at 100 GeV what partonfit evolve's LHAPDF set holds there", async () => {
    const { rows } = JSON.parse(
      await readFile(join(fit, 'report', 'data', 'pdf-flavour-logx-q100.json'), 'utf8'),
    ) as { rows: PdfRow[] };
    const drawn = rows.filter((row) => row.set === 'closure');
    // 8 flavours at the x points from 10⁻⁵ (160 of the 196)
    expect(drawn).toHaveLength(8 * EXPORT_X_GRID.filter((x) => x >= 1e-5).length);
    const evolved = await run('evolve', fit, '--output', output);
    expect(evolved.code).toBe(0);
    expect(evolved.out).toContain('50 scales');
    // member 0, the replicas' mean, on NNPDF's 50 Q knots up to 10⁵ GeV, read as LHAPDF reads it
    const member = await loadLhapdfMember(await loadLhapdfSet(join(output, 'closure')), 0);
    let largest = 0;
    for (const row of drawn) {
      const pid = FLAVOUR_BASIS.find((flavour) => flavour.label === row.flavour)?.pid ?? 0;
      const lhapdf = xfxQ(member, pid, row.x, 100);
      // to LHAPDF's log-bicubic interpolation between the knots at 87.5 and 112 GeV
      expect(Math.abs(row.central - lhapdf)).toBeLessThanOrEqual(1e-5 * Math.abs(lhapdf) + 1e-9);
      if (Math.abs(lhapdf) > 1e-3) largest = Math.max(largest, Math.abs(row.central / lhapdf - 1));
    }
    console.info(`x·f at 100 GeV against partonfit evolve's set: ${largest.toExponential(1)}`);
  });

  it('should read the operator from the cache the second time', async () => {
    const again = await run('report', fit, '--q', '100', '--backend', 'cpu');
    expect([again.code, again.error]).toEqual([0, '']);
    expect(again.out).toMatch(/read the evolution operator from .*evolution-operator-\w+\.h5/);
    expect(again.out).toContain(
      'report of closure: summary, pdfs-q100, effective-exponents, closure; 6 figures',
    );
  });

  it('should refuse a --q it cannot draw with one line naming it, and write nothing', async () => {
    const refused = join(output, 'refused');
    const report = (q: string) => run('report', fit, '--q', q, '--output', refused);
    const cases = [
      [
        '1.4,abc',
        "--q: expected scales Q in GeV separated by commas, e.g. 1.65,100; got '1.4,abc'",
      ],
      ['100,', "--q: expected scales Q in GeV separated by commas, e.g. 1.65,100; got '100,'"],
      [
        '1,100',
        "--q: Q = 1 GeV is below the fit's Q0 = 1.4142135623730951 GeV: PDFs are evolved up from Q0",
      ],
      [
        '2e5',
        '--q: Q = 200000 GeV is above the evolution grid of embedded theory card toyLH-LO, which ends at 100000 GeV',
      ],
    ];
    for (const [q, message] of cases) {
      const result = await report(q);
      expect([q, result.code, result.error.split('\n')[0]]).toEqual([
        q,
        2,
        `partonfit report: ${message}`,
      ]);
    }
    const runcard = join(fit, 'runcard.yml');
    const text = await readFile(runcard, 'utf8');
    await writeFile(runcard, text.replace(/evolution:\n {2}theory_card: toyLH-LO\n/, ''));
    const withoutCard = await report('100');
    await writeFile(runcard, text);
    expect(withoutCard.code).toBe(2);
    expect(withoutCard.error).toContain(
      `partonfit report: --q: the PDFs are evolved to other scales with the fit's theory card: set evolution.theory_card in ${runcard}`,
    );
    expect(await readdir(output)).not.toContain('refused');
  });

  it("should draw the fit's Q0 without a theory card and without evolving", async () => {
    const runcard = join(fit, 'runcard.yml');
    const text = await readFile(runcard, 'utf8');
    await writeFile(runcard, text.replace(/evolution:\n {2}theory_card: toyLH-LO\n/, ''));
    const atQ0 = await run('report', fit, '--q', '1.4142', '--output', join(output, 'at-q0'));
    await writeFile(runcard, text);
    expect([atQ0.code, atQ0.error]).toEqual([0, '']);
    expect(atQ0.out).not.toContain('evolving');
    expect(atQ0.out).toContain(
      'report of closure: summary, pdfs, effective-exponents, closure; 6 figures',
    );
  });

  it("should check --q against the fit's own Q0 (its exportgrids'), not its theory card's", async () => {
    // exportgrids at Q0 = 1.65 GeV; the runcard's card toyLH-LO starts at √2 GeV
    const other = await toyFit(await mkdtemp(join(output, 'q0-1.65-')), 1.65 ** 2);
    const atQ0 = await run('report', other, '--q', '1.65', '--backend', 'cpu');
    expect([atQ0.code, atQ0.error]).toEqual([0, '']);
    expect(atQ0.out).not.toContain('evolving');
    const { title } = JSON.parse(
      await readFile(join(other, 'report', 'data', 'pdf-flavour-logx.json'), 'utf8'),
    ) as { title: string };
    expect(title).toContain('1.65 GeV');
    const cases = [
      [
        '1.4142',
        "--q: Q = 1.4142 GeV needs the fit evolved from its Q0 = 1.65 GeV (its exportgrids' q20), but embedded theory card toyLH-LO has Q0 = 1.4142135623730951 GeV",
      ],
      [
        '1.65,100',
        "--q: Q = 100 GeV needs the fit evolved from its Q0 = 1.65 GeV (its exportgrids' q20), but embedded theory card toyLH-LO has Q0 = 1.4142135623730951 GeV",
      ],
    ];
    for (const [q, message] of cases) {
      const result = await run('report', other, '--q', q, '--output', join(output, 'refused'));
      expect([q, result.code, result.error.split('\n')[0]]).toEqual([
        q,
        2,
        `partonfit report: ${message}`,
      ]);
    }
  });
});
