import { execFileSync, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { trialDocument, triesJson, type TrialLoss } from '@partonfit/hyperopt';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { runCaptured as run } from './cli.fixture.js';

/** Debian's headless browser, or undefined (the tests then skip, saying so). */
function findChromium(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    console.warn('skipping the report browser tests: no chromium (apt-get install chromium)');
    return undefined;
  }
}

const CHROMIUM = findChromium();
const NNPDF40 = 'lhapdf/NNPDF40_nnlo_as_01180';
const EPOCHS = 300;
const REPLICAS = 3;

/**
 * Opens `page` in headless chromium, lets its scripts run, and returns the DOM it drew and the
 * console messages it logged; with `screenshot`, saves a picture of the page there. The
 * browser is stopped by its PID if it has not ended after 60 s.
 */
function browse(page: string, screenshot?: string): Promise<{ dom: string; console: string[] }> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--enable-logging=stderr',
    '--v=0',
    '--virtual-time-budget=30000',
    '--window-size=1400,7000',
    ...(screenshot === undefined ? ['--dump-dom'] : [`--screenshot=${screenshot}`]),
    `file://${page}`,
  ];
  const browser = spawn(CHROMIUM ?? 'chromium', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let dom = '';
  let log = '';
  browser.stdout.on('data', (chunk: Buffer) => (dom += chunk.toString()));
  browser.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const timer = setTimeout(() => {
    if (browser.pid !== undefined) process.kill(browser.pid);
  }, 60_000);
  return new Promise((resolve, reject) => {
    browser.on('error', reject);
    browser.on('close', () => {
      clearTimeout(timer);
      resolve({ dom, console: log.split('\n').filter((line) => line.includes(':CONSOLE')) });
    });
  });
}

/**
 * No horizontal scroll bar in the 1400 px window `browse` opens: the page (wide tables and
 * figures scroll in their own box) is no wider than the window.
 */
function expectNoHorizontalScroll(dom: string): void {
  const width = Number(/data-scroll-width="(\d+)"/.exec(dom)?.[1] ?? Number.NaN);
  expect(width).toBeLessThanOrEqual(1400);
}

/** The drawn elements of each named mark of a figure in the page's DOM, by mark name. */
function drawnMarks(dom: string, figure: string): Map<string, number> {
  const start = dom.indexOf(`data-figure="${figure}"`);
  const end = dom.indexOf('</figure>', start);
  const html = dom.slice(start, end);
  const marks = new Map<string, number>();
  for (const match of html.matchAll(/<g class="mark-\w+ role-mark (\w+)_marks"[^>]*>/g)) {
    const close = html.indexOf('</g>', match.index + match[0].length);
    const group = html.slice(match.index + match[0].length, close);
    const drawn = (group.match(/<(path|line)\b/g) ?? []).length;
    marks.set(match[1], (marks.get(match[1]) ?? 0) + drawn);
  }
  return marks;
}

/** The embedded closure runcard, short, with thresholds every replica passes. */
async function shortRuncard(folder: string): Promise<string> {
  const text = (await readFile(CLOSURE_RUNCARD, 'utf8'))
    .replace('epochs: 8000', `epochs: ${EPOCHS}`)
    .replace('threshold_chi2: 5.0', 'threshold_chi2: 1000')
    .replace('    initial: 10\n', '    initial: 10\n    threshold: 1.0e6\n');
  const file = join(folder, 'closure.yml');
  await writeFile(file, text);
  return file;
}

describe.skipIf(CHROMIUM === undefined)('partonfit report in a headless browser', () => {
  let fitFolder = '';

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-report-'));
    const runcard = await shortRuncard(folder);
    const fitted = await run('fit', runcard, '--replicas', `1-${REPLICAS}`, '--output', folder);
    if (fitted.code !== 0) throw new Error(`partonfit fit failed: ${fitted.error}`);
    fitFolder = join(folder, 'closure');
    const postfit = await run('postfit', fitFolder, '--integrability-threshold', '100');
    if (postfit.code !== 0) throw new Error(`partonfit postfit failed: ${postfit.error}`);
  });

  it('should draw every section and figure of the closure fit with no console message', async () => {
    const output = join(fitFolder, 'report');
    const made = await run('report', fitFolder, '--output', output);
    expect(made.error).toBe('');
    expect(made.code).toBe(0);
    const page = join(output, 'index.html');
    const { dom, console: messages } = await browse(page);
    const screenshot = join(output, 'report.png');
    await browse(page, screenshot);
    const drawnAfter = /data-rendered-after-ms="(\d+)"/.exec(dom)?.[1];
    console.info(
      `report screenshot: ${screenshot}; figures drawn ${drawnAfter ?? '?'} ms after load`,
    );
    expect(messages).toEqual([]);
    expect(dom).toContain('data-errors="0"');
    expectNoHorizontalScroll(dom);
    for (const section of [
      'summary',
      'pdfs',
      'effective-exponents',
      'training',
      'closure',
      'data-theory',
    ]) {
      expect(dom).toContain(`<section id="${section}">`);
    }
    const figures = [
      'chi2',
      'pdf-flavour-logx',
      'pdf-flavour-linearx',
      'pdf-evolution-logx',
      'pdf-evolution-linearx',
      'effective-exponents-alpha',
      'effective-exponents-beta',
      'training',
      'data-theory',
      'pulls',
    ];
    expect(dom).toContain(`data-rendered="${figures.length}"`);
    // 10 datasets, one set (the fit); 8 flavours, the fit with a band and the truth without.
    expect(drawnMarks(dom, 'chi2')).toEqual(new Map([['bars', 10]]));
    for (const figure of figures.filter((id) => id.startsWith('pdf-'))) {
      expect(drawnMarks(dom, figure)).toEqual(
        new Map([
          ['band68', 8],
          ['central', 16],
          ['upperSigma', 8],
          ['lowerSigma', 8],
        ]),
      );
    }
    // 8 fitted flavours: each a band, a mean and the two ranges (used and proposed)
    for (const figure of ['effective-exponents-alpha', 'effective-exponents-beta']) {
      expect(drawnMarks(dom, figure)).toEqual(
        new Map([
          ['ranges', 16],
          ['band68', 8],
          ['mean', 8],
        ]),
      );
    }
    expect(drawnMarks(dom, 'training')).toEqual(
      new Map([
        ['curves', 2 * REPLICAS],
        ['bestEpochs', REPLICAS],
      ]),
    );
    const datasets = JSON.parse(await readFile(join(output, 'data', 'chi2.json'), 'utf8')) as {
      rows: { ndata: number }[];
    };
    const points = datasets.rows.reduce((sum, row) => sum + row.ndata, 0);
    const { rows } = JSON.parse(
      await readFile(join(output, 'data', 'data-theory.json'), 'utf8'),
    ) as {
      rows: { data: number; dataError: number }[];
    };
    expect(rows).toHaveLength(points);
    // The ratio panels leave out data compatible with zero (the embedded charm data).
    const ratios = rows.filter((row) => Math.abs(row.data) > row.dataError).length;
    expect(ratios).toBeGreaterThan(points / 2);
    expect(drawnMarks(dom, 'data-theory')).toEqual(
      new Map([
        ['data', ratios],
        ['theory', ratios],
        ['theoryError', ratios],
      ]),
    );
    expect(drawnMarks(dom, 'pulls')).toEqual(new Map([['pulls', points]]));
    // Bias/variance from the report's float64 predictions of every kept replica and the truth's
    // equals the fit's own from its float32 predictions (every replica passed).
    const report = JSON.parse(await readFile(join(output, 'report.json'), 'utf8')) as {
      sections: { id: string; tables: { id: string; rows: (string | number)[][] }[] }[];
    };
    const closure = report.sections.find((section) => section.id === 'closure');
    const byDataset = closure?.tables.find((table) => table.id === 'closure-datasets');
    expect(byDataset?.rows).toHaveLength(11);
    const total = byDataset?.rows.at(-1)?.at(-1) as number;
    const summary = JSON.parse(await readFile(join(fitFolder, 'summary.json'), 'utf8')) as {
      quality: { biasVarianceRatio: number };
    };
    expect(Math.abs(total / summary.quality.biasVarianceRatio - 1)).toBeLessThan(1e-5);
  });

  it('should draw the PDFs at Q0 and evolved to 100 GeV, every figure also as PNG', async () => {
    // the evolution operator goes to a temporary cache, never the user's
    const cache = await mkdtemp(join(tmpdir(), 'partonfit-report-cache-'));
    vi.stubEnv('XDG_CACHE_HOME', cache);
    const output = join(fitFolder, 'report-scales');
    const made = await run('report', fitFolder, '--q', `${Math.SQRT2},100`, '--output', output);
    vi.unstubAllEnvs();
    await rm(cache, { recursive: true, force: true });
    expect([made.code, made.error]).toEqual([0, 'building the evolution operator: scale 1/1\n']);
    const page = join(output, 'index.html');
    const { dom, console: messages } = await browse(page);
    await browse(page, join(output, 'report.png'));
    expect(messages).toEqual([]);
    expect(dom).toContain('data-errors="0"');
    expectNoHorizontalScroll(dom);
    for (const section of ['pdfs', 'pdfs-q100']) {
      expect(dom).toContain(`<section id="${section}">`);
    }
    expect(dom).toContain('<h2>PDFs at Q = 100 GeV</h2>');
    // the 10 figures of the first report (effective exponents included) and the 4 PDF figures at 100 GeV
    expect(dom).toContain('data-rendered="14"');
    for (const figure of ['pdf-flavour-logx-q100', 'pdf-evolution-linearx-q100']) {
      // the fit with a band and the closure truth, evolved alike
      expect(drawnMarks(dom, figure)).toEqual(
        new Map([
          ['band68', 8],
          ['central', 16],
          ['upperSigma', 8],
          ['lowerSigma', 8],
        ]),
      );
    }
    const files = await readdir(join(output, 'figures'));
    const svgs = files.filter((file) => file.endsWith('.svg'));
    expect(svgs).toHaveLength(14);
    expect(files.filter((file) => file.endsWith('.png')).sort()).toEqual(
      svgs.map((file) => file.replace(/\.svg$/, '.png')).sort(),
    );
  });

  it.skipIf(!hasSharedData(NNPDF40, 'the report compared with NNPDF4.0'))(
    'should compare with NNPDF4.0 with the χ² of partonfit predict exactly',
    async () => {
      const output = join(fitFolder, 'report-nnpdf40');
      const nnpdf40 = join(SHARED_DATA, NNPDF40);
      const made = await run('report', fitFolder, '--compare', nnpdf40, '--output', output);
      expect([made.code, made.error]).toEqual([0, '']);
      const rows = (
        JSON.parse(await readFile(join(output, 'data', 'chi2.json'), 'utf8')) as {
          rows: { dataset: string; set: string; chi2: number; chi2PerPoint: number }[];
        }
      ).rows;
      expect(new Set(rows.map((row) => row.set))).toEqual(
        new Set(['closure', 'NNPDF40_nnlo_as_01180']),
      );
      expect(rows).toHaveLength(20);
      const runcard = join(fitFolder, 'runcard.yml');
      for (const row of rows) {
        const pdf = row.set === 'closure' ? fitFolder : nnpdf40;
        const predicted = await run(
          'predict',
          '--pdf',
          pdf,
          '--dataset',
          row.dataset,
          '--runcard',
          runcard,
          '--json',
        );
        expect([predicted.code, predicted.error]).toEqual([0, '']);
        const { chi2, chi2PerPoint } = JSON.parse(predicted.out) as {
          chi2: number;
          chi2PerPoint: number;
        };
        expect([row.dataset, row.set, row.chi2, row.chi2PerPoint]).toEqual([
          row.dataset,
          row.set,
          chi2,
          chi2PerPoint,
        ]);
      }
      const { dom, console: messages } = await browse(join(output, 'index.html'));
      await browse(join(output, 'index.html'), join(output, 'report.png'));
      expect(messages).toEqual([]);
      expectNoHorizontalScroll(dom);
      // NNPDF4.0 has members 0 and 1 here: a central curve and no band.
      expect(drawnMarks(dom, 'pdf-flavour-logx')).toEqual(
        new Map([
          ['band68', 8],
          ['central', 24],
          ['upperSigma', 8],
          ['lowerSigma', 8],
        ]),
      );
      expect(dom).toContain('<figure id="figure-pdf-ratio-flavour-logx">');
      expect(drawnMarks(dom, 'chi2')).toEqual(new Map([['bars', 20]]));
    },
  );
});

/**
 * A scan folder of `partonfit hyperopt examples/hyperopt.yml` with 8 trials of 3 folds: trials
 * 0–5 ok (one or two layers, tanh or sigmoid, learning rates 1e-3 … 6e-3), trial 6 above the
 * threshold on its first fold (loss penalised), trial 7 without a loss (it diverged).
 */
async function scanFolder(): Promise<string> {
  const folder = join(await mkdtemp(join(tmpdir(), 'partonfit-report-scan-')), 'hyperopt');
  await mkdir(join(folder, 'hyperopt'), { recursive: true });
  const runcard = fileURLToPath(new URL('../../../examples/hyperopt.yml', import.meta.url));
  await copyFile(runcard, join(folder, 'runcard.yml'));
  const documents = Array.from({ length: 8 }, (_, tid) => {
    const losses = [1, 1.5, 2].map((loss) => loss + tid / 4);
    const outcome: TrialLoss | { failure: string } =
      tid === 7
        ? { failure: 'every replica diverged in fold 1' }
        : tid === 6
          ? { status: 'fail', loss: 160, foldLosses: [150], thresholdFold: 0 }
          : { status: 'ok', loss: losses[1], foldLosses: losses, thresholdFold: undefined };
    const metrics = { chi2: 1.5, phi: 0.1, logp: 1, chi2exp: 1.1 };
    return trialDocument({
      tid,
      point: {},
      labels: [],
      spaceValues: {
        nodes_per_layer: tid % 2 === 0 ? [20 + tid, 8] : [20 + tid, 10 + tid, 8],
        activation_per_layer: tid % 3 === 0 ? 'sigmoid' : 'tanh',
        optimizer: { optimizer_name: 'Adam', learning_rate: (tid + 1) * 1e-3, clipnorm: 1e-5 },
        epochs: 2000,
      },
      folds: losses.map((loss) => ({
        validationLosses: [loss],
        experimentalLosses: [loss],
        penalties: {},
        heldOut: metrics,
        fitted: metrics,
      })),
      outcome,
      bookTime: new Date(0),
      refreshTime: new Date(1000),
      batch: 0,
      seconds: 1,
    });
  });
  await writeFile(join(folder, 'hyperopt', 'tries.json'), triesJson(documents));
  return folder;
}

describe.skipIf(CHROMIUM === undefined)('partonfit report of a scan in a headless browser', () => {
  it('should draw every figure of the scan report with no console message', async () => {
    const folder = await scanFolder();
    const made = await run('report', folder);
    expect([made.code, made.error]).toEqual([0, '']);
    const page = join(folder, 'report', 'index.html');
    const { dom, console: messages } = await browse(page);
    await browse(page, join(folder, 'report', 'report.png'));
    expect(messages).toEqual([]);
    expect(dom).toContain('data-errors="0"');
    expect(dom).toContain('data-rendered="3"');
    expectNoHorizontalScroll(dom);
    for (const section of [
      'scan-summary',
      'scan-settings',
      'scan-folds',
      'scan-best',
      'scan-history',
    ]) {
      expect(dom).toContain(`<section id="${section}">`);
    }
    // Trials 0–6 have a loss; trials 1, 3 and 5 have a second layer.
    expect(drawnMarks(dom, 'loss-vs-settings')).toEqual(
      new Map([
        ['setting_number_of_layers', 7],
        ['setting_layer_1', 7],
        ['setting_layer_2', 3],
        ['setting_activation_per_layer', 7],
        ['setting_learning_rate', 7],
      ]),
    );
    // The best 5 trials' folds joined by a line each; 6 ok trials × 3 folds and trial 6's first.
    expect(drawnMarks(dom, 'fold-losses')).toEqual(
      new Map([
        ['bestFolds', 5],
        ['foldLosses', 19],
      ]),
    );
    expect(drawnMarks(dom, 'trial-losses')).toEqual(
      new Map([
        ['runningBest', 1],
        ['trials', 7],
      ]),
    );
    // The best trials' table: the ok trials by loss, trial 0 (loss 1.5) first.
    const table = /<table id="table-best-trials">[\s\S]*?<\/table>/.exec(dom)?.[0] ?? '';
    const trials = [...table.matchAll(/<tr><td>(\d+)<\/td><td>(\d+)<\/td>/g)].map((m) => m[2]);
    expect(trials).toEqual(['0', '1', '2', '3', '4', '5']);
  });
});
