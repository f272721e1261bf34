import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVOLUTION_TO_FLAVOUR, FLAVOUR_BASIS, rotateFlavours } from '@partonfit/core';
import {
  embeddedTheoryCard,
  evolvePdfs,
  TOY_LH_LO_THEORY,
  type TheoryCard,
} from '@partonfit/evolution';
import { chi2ExpsLogText, EXPORT_X_GRID, runPostfit } from '@partonfit/fit-folder';
import { SYNTHETIC_X, syntheticFit } from '@partonfit/fit-folder/testing';
import { toyPdfXf } from '@partonfit/fktables';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '@partonfit/io';
import { renderSvg } from '../render/render-figure.js';
import { buildReport } from './build-report.js';
import { replicaShapedFit } from './report.fixture.js';
import { writeReport } from './write-report.js';

/** A synthetic fit of three replicas (the third without exportgrid) with the closure runcard. */
async function fitFolder(): Promise<string> {
  const folder = await syntheticFit([
    { replica: 1, chi2: 1.1 },
    { replica: 2, chi2: 1.3 },
    { replica: 3, chi2: 1.2, without: ['exportgrid'] },
  ]);
  await copyFile(CLOSURE_RUNCARD, join(folder, 'runcard.yml'));
  const log = new Map([
    [100, { trainingLoss: 5, validationLoss: 6, validationChi2s: { total: 6 } }],
    [200, { trainingLoss: 2, validationLoss: 3, validationChi2s: { total: 3 } }],
  ]);
  for (const replica of [1, 2]) {
    await writeFileAtomic(
      join(folder, 'nnfit', `replica_${replica}`, 'chi2exps.log'),
      chi2ExpsLogText(log),
    );
  }
  return folder;
}

describe('buildReport', () => {
  it('should show what a fit without postfit has and say what is missing', async () => {
    const folder = await fitFolder();
    const report = await buildReport(folder, {
      predictions: false,
      compare: [join(folder, 'no-such-set')],
    });
    expect(report.sections.map((section) => section.id)).toEqual([
      'summary',
      'pdfs',
      'training',
      'closure',
    ]);
    expect(report.problems.join('\n')).toMatch(/postfit\.json: the report shows every fitted/);
    expect(report.problems.join('\n')).toMatch(/summary\.json: missing/);
    // replica 3's log is not a chi2exps.log: named, not fatal.
    expect(report.problems.join('\n')).toMatch(/replica 3: .*chi2exps\.log/);
    const pdfs = report.sections[1];
    expect(pdfs.notes).toContain(
      'synthetic: 2 replicas from nnfit/ (no postfit: every fitted replica)',
    );
    expect(pdfs.notes).toContain('synthetic: replica 3 of nnfit/ without an exportgrid');
    expect(pdfs.notes).toContain(
      `${join(folder, 'no-such-set')}: no LHAPDF set no-such-set here; \`partonfit get pdf no-such-set\` downloads it into the data folder, where runcards without data_paths.lhapdf look`,
    );
    const logx = pdfs.figures.find((figure) => figure.id === 'pdf-flavour-logx');
    expect(logx?.series).toEqual(['synthetic', 'truth (toyLH)']);
    // Replicas 1 and 2's gluon at x = 0.01 is (r + 1)·(2 + 6/100): 4.12 and 6.18.
    const gluon = logx?.rows.find(
      (row) => row.set === 'synthetic' && row.flavour === 'g' && row.x === SYNTHETIC_X[1],
    );
    expect(gluon?.central).toBeCloseTo(5.15, 12);
    expect(gluon?.lower68).toBeCloseTo(4.12 + 0.16 * 2.06, 12);
    expect(gluon?.upperSigma).toBeCloseTo(5.15 + Math.SQRT2 * 1.03, 12);
    const training = report.sections[2].figures[0];
    expect(training.series).toEqual(['replica 1', 'replica 2']);
    // Two logged epochs, training and validation, per replica; no best epoch in these JSONs.
    expect(training.rows).toHaveLength(2 * 2 * 2);
  });

  it('should take postfit’s replicas and write SVG, JSON and CSV of every figure', async () => {
    const folder = await fitFolder();
    await runPostfit(folder, { thresholds: { integrability: 100 } });
    const report = await buildReport(folder, { predictions: false });
    expect(report.problems.join('\n')).not.toMatch(/postfit\.json/);
    const output = join(folder, 'report');
    const written = await writeReport(report, output);
    expect(written.figures).toEqual([
      'pdf-flavour-logx',
      'pdf-flavour-linearx',
      'pdf-evolution-logx',
      'pdf-evolution-linearx',
      'training',
    ]);
    const svg = await readFile(join(output, 'figures', 'pdf-evolution-logx.svg'), 'utf8');
    // 8 panels, each with the fit's band and two curves (the fit and the truth).
    expect(svg.match(/class="mark-area role-mark band68_marks"/g)).toHaveLength(8);
    expect(svg.match(/class="mark-line role-mark central_marks"/g)).toHaveLength(16);
    const csv = (await readFile(join(output, 'data', 'training.csv'), 'utf8')).split('\n');
    expect(csv[0]).toBe('replica,epoch,loss,chi2');
    expect(csv[1]).toBe('replica 1,100,training,5');
    const json = JSON.parse(await readFile(join(output, 'data', 'training.json'), 'utf8')) as {
      rows: unknown[];
    };
    expect(json.rows).toHaveLength(8);
    const page = await readFile(join(output, 'index.html'), 'utf8');
    expect(page).toContain('<script src="vega.min.js"></script>');
    expect(page).not.toMatch(/https?:\/\/(?!vega\.github\.io\/schema)/);
    // Written again with fewer figures: the earlier report's are gone.
    const trainingOnly = {
      ...report,
      sections: report.sections.filter((s) => s.id === 'training'),
    };
    await writeReport(trainingOnly, output);
    expect((await readdir(join(output, 'figures'))).sort()).toEqual([
      'training.png',
      'training.svg',
    ]);
    // A folder that holds something else is not overwritten.
    await expect(writeReport(report, folder)).rejects.toThrow(
      /no report\.json: not a report folder/,
    );
    await rm(folder, { recursive: true });
  });

  it('should compare with another fit: ratios and distances, and refuse another x grid', async () => {
    const folder = await fitFolder();
    const other = await fitFolder();
    const otherGrid = await replicaShapedFit(3, 200);
    const report = await buildReport(folder, { predictions: false, compare: [other, otherGrid] });
    const pdfs = report.sections[1];
    expect(pdfs.figures.map((figure) => figure.id)).toEqual([
      'pdf-flavour-logx',
      'pdf-flavour-linearx',
      'pdf-evolution-logx',
      'pdf-evolution-linearx',
      'pdf-ratio-flavour-logx',
      'pdf-distances',
    ]);
    expect(pdfs.notes).toContain(`${otherGrid}: its x grid is not synthetic's`);
    // Two fits called synthetic: the compare set goes by its path.
    expect(pdfs.figures[4].series).toEqual(['synthetic', other, 'truth (toyLH)']);
    // The same replicas: ratio 1 and distance 0.
    const ratio = pdfs.figures[4].rows.find(
      (row) => row.set === other && row.flavour === 'g' && row.x === 0.5,
    );
    expect(ratio?.central).toBe(1);
    const distance = pdfs.figures[5].rows.find((row) => row.flavour === 'g' && row.x === 0.5);
    expect([distance?.central, distance?.uncertainty]).toEqual([0, 0]);
  });

  it('should draw every replica’s curve when asked', async () => {
    const folder = await fitFolder();
    const report = await buildReport(folder, { predictions: false, replicaCurves: true });
    const figure = report.sections[1].figures[0];
    const curves = figure.rows.filter((row) => 'replica' in row);
    // Replicas 1 and 2 (3 has no exportgrid), 8 flavours, 3 x points.
    expect(curves).toHaveLength(2 * 8 * 3);
    const gluon = curves.find((row) => row.replica === 2 && row.flavour === 'g' && row.x === 0.5);
    expect(gluon?.value).toBeCloseTo(3 * (3 + 6 / 100), 12);
    const svg = await renderSvg(figure);
    expect(svg.match(/class="mark-line role-mark replicas_marks"/g)).toHaveLength(8 * 2);
    expect(svg.match(/class="mark-line role-mark central_marks"/g)).toHaveLength(8 * 2);
  });

  it('should refuse a folder without a runcard, naming the file', async () => {
    const folder = await syntheticFit([{ replica: 1 }]);
    await expect(buildReport(folder, { predictions: false })).rejects.toThrow(/runcard\.yml/);
  });
});

describe('buildReport at other scales', () => {
  let cache: string;
  let card: TheoryCard;

  beforeAll(async () => {
    // the default operator source caches in the user's cache: a temporary folder here
    cache = await mkdtemp(join(tmpdir(), 'partonfit-report-cache-'));
    vi.stubEnv('XDG_CACHE_HOME', cache);
    const toy = embeddedTheoryCard(TOY_LH_LO_THEORY);
    if (toy === undefined) throw new Error('expected the embedded toy theory card');
    card = toy;
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(cache, { recursive: true, force: true });
  });

  it('should draw the fit and its truth at each scale, evolved from Q0 as evolvePdfs evolves them', async () => {
    // 3 replicas of the toy PDF at Q0 = √2 GeV scaled by 1 + 0.05·sin r, the closure runcard;
    // 1.4142 is Q0 and 100.001 is written as 100: two sections.
    const folder = await replicaShapedFit(3, 200);
    const report = await buildReport(folder, {
      predictions: false,
      scales: [100, 1.4142, 100.001],
      evolution: { card },
    });
    expect(report.sections.map((section) => section.id)).toEqual([
      'summary',
      'pdfs',
      'pdfs-q100',
      'effective-exponents',
      'training',
      'closure',
    ]);
    const [atQ0, at100] = [report.sections[1], report.sections[2]];
    expect(atQ0.title).toBe('PDFs at Q = 1.414 GeV');
    expect(at100.title).toBe('PDFs at Q = 100 GeV');
    expect(at100.figures.map((figure) => figure.id)).toEqual([
      'pdf-flavour-logx-q100',
      'pdf-flavour-linearx-q100',
      'pdf-evolution-logx-q100',
      'pdf-evolution-linearx-q100',
    ]);
    expect(at100.notes).toContain(
      'closure: evolved from Q0 = 1.414 GeV with embedded theory card toyLH-LO',
    );
    const logx = at100.figures[0];
    expect(logx.series).toEqual(['closure', 'truth (toyLH)']);
    // The truth evolved directly, without an operator; the fit is the truth × the mean scale.
    const truth = evolvePdfs(
      card,
      { xGrid: EXPORT_X_GRID, qGrid: [100], thresholdKnots: 'evolven3fit' },
      rotateFlavours(EVOLUTION_TO_FLAVOUR, toyPdfXf(EXPORT_X_GRID)),
      1,
    );
    const meanScale = 1 + (0.05 * (Math.sin(1) + Math.sin(2) + Math.sin(3))) / 3;
    const gluon = FLAVOUR_BASIS.findIndex((flavour) => flavour.pid === 21);
    for (const a of [60, 100, 150]) {
      const x = EXPORT_X_GRID[a];
      const row = (set: string) =>
        logx.rows.find((entry) => entry.set === set && entry.flavour === 'g' && entry.x === x);
      const expected = truth[a * FLAVOUR_BASIS.length + gluon];
      expect(Math.abs((row('truth (toyLH)')?.central as number) / expected - 1)).toBeLessThan(
        1e-10,
      );
      expect(
        Math.abs((row('closure')?.central as number) / (expected * meanScale) - 1),
      ).toBeLessThan(1e-10);
      expect(row('closure')?.band).toBe(true);
    }
    const output = join(folder, 'report');
    const written = await writeReport(report, output);
    // four PDF figures at each of the two scales, the effective exponents (α and β), training
    expect(written.figures).toHaveLength(11);
    const figures = await readdir(join(output, 'figures'));
    for (const id of written.figures) {
      expect(figures).toContain(`${id}.svg`);
      expect(figures).toContain(`${id}.png`);
    }
    // The operator is in the cache: a second report reads it.
    expect(
      (await readdir(join(cache, 'partonfit'))).filter((name) =>
        name.startsWith('evolution-operator-'),
      ),
    ).toHaveLength(1);
  });

  it('should refuse scales it cannot draw before any work, naming them', async () => {
    const folder = await replicaShapedFit(2, 100);
    const build = (scales: number[], evolution?: { card: TheoryCard }) =>
      buildReport(folder, { predictions: false, scales, ...(evolution && { evolution }) });
    await expect(build([1], { card })).rejects.toThrow(
      "scales: Q = 1 GeV is below the fit's Q0 = 1.4142135623730951 GeV",
    );
    await expect(build([1e6], { card })).rejects.toThrow(
      'scales: Q = 1000000 GeV is above the evolution grid of embedded theory card toyLH-LO, which ends at 100000 GeV',
    );
    await expect(build([100])).rejects.toThrow(
      "scales: Q = 100 GeV is not the fit's Q0 = 1.4142135623730951 GeV, and there is no theory card",
    );
    await expect(build([100], { card: { ...card, q0: 1.65, file: 'card.yaml' } })).rejects.toThrow(
      "scales: Q = 100 GeV needs the fit evolved from its Q0 = 1.4142135623730951 GeV (its exportgrids' q20), but card.yaml has Q0 = 1.65 GeV",
    );
  });
});
