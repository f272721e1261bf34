import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputFileRejection } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { writeReport } from '../report/write-report.js';
import {
  scanDocument,
  SCAN_TRIALS,
  upstreamDocumentText,
  writeScanFolder,
} from './scan.fixture.js';
import { holdsScanTrials, readScanRecords } from './scan-records.js';
import { buildScanReport } from './scan-report.js';

function section(report: Awaited<ReturnType<typeof buildScanReport>>, id: string) {
  const found = report.sections.find((each) => each.id === id);
  if (found === undefined) throw new Error(`no section ${id}`);
  return found;
}

describe('buildScanReport', () => {
  it('should summarise the scan: trials, the best one, the k-fold and scan settings', async () => {
    const folder = await writeScanFolder();
    const report = await buildScanReport(folder);
    expect(report.title).toBe('partonfit scan report: hyperopt');
    expect(report.sections.map((each) => each.id)).toEqual([
      'scan-summary',
      'scan-settings',
      'scan-folds',
      'scan-best',
      'scan-history',
    ]);
    const summary = section(report, 'scan-summary');
    const rows = new Map(summary.tables[0].rows.map(([key, value]) => [key, value]));
    expect(rows.get('trials finished')).toBe('8 of 8 listed');
    expect(rows.get('ok')).toBe(6);
    expect(rows.get('failed')).toBe(2);
    expect(rows.get('failed: above the threshold (loss penalised)')).toBe('trial 2');
    expect(rows.get('failed: no loss')).toBe('trial 3');
    expect(rows.get('best trial')).toBe('4 (loss 2.00000)');
    // Batches 0 (trials 0–3, 60 s) and 1 (trials 4–7, 61 s), each counted once.
    expect(rows.get('training wall time (s)')).toBe(121);
    expect(rows.get('loss type')).toBe('chi2');
    expect(rows.get('fold statistic')).toBe('average');
    expect(rows.get('penalties')).toBe('saturation, patience, integrability');
    expect(rows.get('threshold')).toBe(50);
    expect(rows.get('partitions')).toBe(3);
    expect(rows.get('sampler')).toBe('tpe');
    expect(rows.get('trials per model')).toBe(4);
    expect(rows.get('one fold per model')).toBe('no');
    expect(summary.tables[1].rows).toEqual([
      ['fold 1', 'CLOSURE_F2D, CLOSURE_NU_XF3, CLOSURE_NU_DIMUON', 1, 'no'],
      ['fold 2', 'CLOSURE_NUB_F2, CLOSURE_F2C', 1, 'no'],
      ['fold 3', 'CLOSURE_NU_F2, CLOSURE_NUB_XF3, CLOSURE_NUB_DIMUON', 1, 'no'],
    ]);
    expect(summary.tables[2].rows).toEqual([
      ['clipnorm', 1e-5],
      ['epochs', 4000],
      ['stopping patience', 0.1],
      ['initializer', 'glorot_normal'],
      ['positivity initial', 10],
    ]);
    expect(summary.notes).toEqual(['Trial 3 failed: every replica diverged in fold 2']);
  });

  it('should draw the loss against each varied setting, the best 5 and failures marked', async () => {
    const report = await buildScanReport(await writeScanFolder());
    const settings = section(report, 'scan-settings');
    expect(settings.notes).toEqual(['1 failed trial(s) without a loss are not drawn.']);
    const [figure] = settings.figures;
    expect(figure.panels).toEqual([
      'number_of_layers',
      'layer_1',
      'layer_2',
      'activation_per_layer',
      'optimizer',
      'learning_rate',
    ]);
    // Every trial with a loss: not trial 3.
    expect(figure.rows.map((row) => row.tid)).toEqual([0, 1, 2, 4, 5, 6, 7]);
    const groups = Object.fromEntries(figure.rows.map((row) => [String(row.tid), row.group]));
    expect(groups).toEqual({
      0: 'best 5',
      1: 'best 5',
      2: 'failed',
      4: 'best 5',
      5: 'ok',
      6: 'best 5',
      7: 'best 5',
    });
    const two = figure.rows.find((row) => row.tid === 1);
    expect([two?.number_of_layers, two?.layer_1, two?.layer_2, two?.learning_rate]).toEqual([
      2, 15, 12, 5e-3,
    ]);
  });

  it('should list the 10 best ok trials with their fold losses and settings', async () => {
    const report = await buildScanReport(await writeScanFolder());
    const [table] = section(report, 'scan-best').tables;
    expect(table.columns).toEqual([
      'rank',
      'trial',
      'loss',
      'fold 1',
      'fold 2',
      'fold 3',
      'number of layers',
      'units of layer 1',
      'units of layer 2',
      'activation',
      'optimizer',
      'learning rate',
    ]);
    expect(table.rows).toEqual([
      [1, 4, 2, 1.5, 2, 2.5, 1, 10, '', 'tanh', 'Adam', 1e-2],
      [2, 6, 2.4, 2.2, 2.4, 2.6, 1, 12, '', 'sigmoid', 'Nadam', 3e-3],
      [3, 1, 2.5, 2, 2.5, 3, 2, 15, 12, 'sigmoid', 'Adam', 5e-3],
      [4, 7, 3.5, 3, 3.5, 4, 1, 18, '', 'tanh', 'Adam', 8e-4],
      [5, 0, 4, 3, 4, 5, 1, 20, '', 'tanh', 'Nadam', 1e-3],
      [6, 5, 6, 5, 6, 7, 2, 30, 20, 'tanh', 'Nadam', 7e-4],
    ]);
  });

  it('should draw each trial’s counted folds and the running best', async () => {
    const report = await buildScanReport(await writeScanFolder());
    const folds = section(report, 'scan-folds');
    expect(folds.notes).toEqual(['Without fold losses (not drawn): trial 3.']);
    // Six ok trials × 3 folds, and trial 2's first fold (above the threshold: ×3).
    expect(folds.figures[0].rows).toHaveLength(19);
    expect(folds.figures[0].rows.filter((row) => row.tid === 2)).toEqual([
      { tid: 2, fold: 'fold 1', loss: 180, group: 'failed' },
    ]);
    const history = section(report, 'scan-history').figures[0];
    expect(history.rows.map((row) => [row.tid, row.loss, row.runningBest])).toEqual([
      [0, 4, 4],
      [1, 2.5, 2.5],
      [2, 180, 2.5],
      [3, null, 2.5],
      [4, 2, 2],
      [5, 6, 2],
      [6, 2.4, 2],
      [7, 3.5, 2],
    ]);
  });

  it('should write the page and an SVG of every figure, one scatter per setting', async () => {
    const folder = await writeScanFolder();
    const written = await writeReport(await buildScanReport(folder), join(folder, 'report'));
    expect(written.figures).toEqual(['loss-vs-settings', 'fold-losses', 'trial-losses']);
    const svg = await readFile(join(folder, 'report', 'figures', 'loss-vs-settings.svg'), 'utf8');
    for (const name of ['number_of_layers', 'layer_1', 'activation_per_layer', 'learning_rate']) {
      expect(svg).toContain(`role-mark setting_${name}_marks`);
    }
    expect(svg).not.toContain('setting_epochs_marks');
    const page = await readFile(written.index, 'utf8');
    expect(page).toContain('<table id="table-best-trials">');
    expect(page).not.toMatch(/https?:\/\/(?!vega\.github\.io\/schema)/);
  });

  it('should take the fold losses of an n3fit tries.json from hyper_losses_chi2', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-n3fit-scan-'));
    await mkdir(join(folder, 'nnfit', 'replica_1'), { recursive: true });
    const text = `[${upstreamDocumentText(0, [1.75, 2.5, 3.25], 2.5)}, ${upstreamDocumentText(1, [1, 2, 3], 2)}]`;
    await writeFile(join(folder, 'nnfit', 'replica_1', 'tries.json'), text);
    expect(await holdsScanTrials(folder)).toBe(true);
    const records = await readScanRecords(folder);
    expect(records.folds).toBe(3);
    expect(records.trials.map((trial) => [trial.foldSource, trial.foldLosses])).toEqual([
      ['hyper_losses_chi2', [1.75, 2.5, 3.25]],
      ['hyper_losses_chi2', [1, 2, 3]],
    ]);
    // A numpy number written as a string is read; the layers vary, the epochs too.
    expect(records.trials[1].settings.epochs).toBe(17001);
    const report = await buildScanReport(folder);
    const summary = section(report, 'scan-summary');
    expect(summary.notes).toContain(
      `no runcard.yml in ${folder}: the scan's kfold settings are not shown`,
    );
    expect(summary.notes).toContain(
      "Fold losses: the file has no kfold_meta.fold_losses (n3fit's own tries.json), so each fold's loss is its held-out chi2 (kfold_meta.hyper_losses_chi2).",
    );
    expect(section(report, 'scan-settings').figures[0].panels).toEqual(['layer_1', 'epochs']);
    expect(section(report, 'scan-best').tables[0].rows.map((row) => row.slice(0, 6))).toEqual([
      [1, 1, 2, 1, 2, 3],
      [2, 0, 2.5, 1.75, 2.5, 3.25],
    ]);
  });

  it('should take φ per fold for a phi2 scan without fold_losses', async () => {
    const folder = await writeScanFolder(`[${upstreamDocumentText(0, [1, 2, 3], 2)}]`);
    const runcard = join(folder, 'runcard.yml');
    await writeFile(
      runcard,
      (await readFile(runcard, 'utf8')).replace('loss_type: chi2', 'loss_type: phi2'),
    );
    const [trial] = (await readScanRecords(folder)).trials;
    expect(trial.foldSource).toBe('hyper_losses_phi2');
    // Python's bare NaN is read as a number that is not finite.
    expect(trial.foldLosses).toEqual([Number.NaN, 0.25, 0.5]);
  });

  it('should refuse trials that are not JSON or not a list, naming the file', async () => {
    for (const [text, problem] of [
      ['[{"tid": 0,', /hyperopt\/tries\.json: not JSON/],
      ['{"tid": 0}', /hyperopt\/tries\.json: expected a list of trials/],
    ] as const) {
      const folder = await writeScanFolder(text);
      const error = await inputFileRejection(buildScanReport(folder));
      expect(error.file).toBe(join(folder, 'hyperopt', 'tries.json'));
      expect(error.message).toMatch(problem);
    }
  });

  it('should refuse a scan without a finished trial', async () => {
    const running = { ...scanDocument(SCAN_TRIALS[0]), state: 1 };
    const folder = await writeScanFolder([running]);
    const error = await inputFileRejection(buildScanReport(folder));
    expect(error.message).toBe(
      `${join(folder, 'hyperopt', 'tries.json')}: no finished trial among its 1: nothing to report yet`,
    );
    const empty = await writeScanFolder([]);
    await expect(buildScanReport(empty)).rejects.toThrow(/no finished trial among its 0/);
  });
});

describe('holdsScanTrials', () => {
  it('should tell a scan folder from a fit folder and from other paths', async () => {
    const scan = await writeScanFolder();
    expect(await holdsScanTrials(scan)).toBe(true);
    expect(await holdsScanTrials(join(scan, 'hyperopt', 'tries.json'))).toBe(false);
    expect(await holdsScanTrials(join(scan, 'hyperopt', 'batches'))).toBe(false);
    expect(await holdsScanTrials(join(scan, 'runcard.yml', 'x'))).toBe(false);
    // A fit with a tries.json beside its replicas is a fit.
    await mkdir(join(scan, 'nnfit', 'replica_1'), { recursive: true });
    expect(await holdsScanTrials(scan)).toBe(true);
    await writeFile(join(scan, 'nnfit', 'replica_1', 'hyperopt.exportgrid'), '');
    expect(await holdsScanTrials(scan)).toBe(false);
  });
});
