import type { ReportSection, ReportTable } from '../render/html-page.js';
import type { Report } from '../report/build-report.js';
import {
  foldFigure,
  historyFigure,
  settingsFigure,
  type FoldRow,
  type HistoryRow,
  type TrialGroup,
  type TrialRow,
} from './scan-figures.js';
import { readScanRecords, type ScanRecords, type ScanTrial } from './scan-records.js';
import { sharedSettings, varyingSettings, type ScanSetting } from './trial-settings.js';

/** How many of the best trials the figures mark, and the table lists. */
const MARKED = 5;
const LISTED = 10;

/** Whether a trial passed and has a loss to rank it by. */
function isOk(trial: ScanTrial): boolean {
  return trial.status === 'ok' && Number.isFinite(trial.loss);
}

/** The `ok` trials by loss, lowest first (ties by trial id). */
export function rankedTrials(trials: readonly ScanTrial[]): ScanTrial[] {
  return trials.filter(isOk).sort((a, b) => a.loss - b.loss || a.tid - b.tid);
}

function groupOf(trial: ScanTrial, best: ReadonlySet<number>): TrialGroup {
  if (!isOk(trial)) return 'failed';
  return best.has(trial.tid) ? 'best 5' : 'ok';
}

function foldNames(count: number): string[] {
  return Array.from({ length: count }, (_, k) => `fold ${k + 1}`);
}

/** Trial ids as a phrase: `trial 3`, `trials 2, 5`, the first 12 of more. */
function listed(tids: readonly number[]): string {
  const ids =
    tids.length > 12 ? `${tids.slice(0, 12).join(', ')}, … (${tids.length})` : tids.join(', ');
  return `${tids.length === 1 ? 'trial' : 'trials'} ${ids}`;
}

/** The wall time of the scan's batches: each batch's once. */
function trainingSeconds(trials: readonly ScanTrial[]): number | undefined {
  const batches = new Map<number, number>();
  for (const { batch, seconds } of trials) {
    if (batch !== undefined && seconds !== undefined) batches.set(batch, seconds);
  }
  if (batches.size === 0) return undefined;
  return [...batches.values()].reduce((sum, seconds) => sum + seconds, 0);
}

/** scan.json's keys as the summary names them. */
const SCAN_JSON_NAMES: Readonly<Record<string, string>> = {
  trials: 'trials asked for',
  trials_per_model: 'trials per model',
  replicas: 'replicas per fold',
  sampler: 'sampler',
  seed: 'sampler seed',
  one_fold_per_model: 'one fold per model',
  runcardSha256: 'runcard SHA-256',
};

/** A value of `scan.json` in a table: numbers as they are, flags as yes/no, the rest as text. */
function tableValue(value: unknown): string | number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function summarySection(records: ScanRecords, ranked: readonly ScanTrial[]): ReportSection {
  const { trials, kfold } = records;
  const failed = trials.filter((trial) => !isOk(trial));
  const penalised = failed.filter((trial) => Number.isFinite(trial.loss));
  const lossless = failed.filter((trial) => !Number.isFinite(trial.loss));
  const best = ranked.at(0);
  const seconds = trainingSeconds(trials);
  const rows: (string | number)[][] = [
    ['scan', records.name],
    ['trials file', records.triesFile],
    ['trials finished', `${trials.length} of ${records.listed} listed`],
    ['ok', trials.length - failed.length],
    ['failed', failed.length],
    ...(penalised.length > 0
      ? [['failed: above the threshold (loss penalised)', listed(penalised.map((t) => t.tid))]]
      : []),
    ...(lossless.length > 0 ? [['failed: no loss', listed(lossless.map((t) => t.tid))]] : []),
    [
      'best trial',
      best === undefined
        ? 'none: no trial passed'
        : `${best.tid} (loss ${best.loss.toPrecision(6)})`,
    ],
    ...(seconds === undefined ? [] : [['training wall time (s)', Math.round(seconds)]]),
  ];
  if (kfold !== undefined) {
    rows.push(
      ['loss type', kfold.loss_type],
      ['replica statistic', kfold.replica_statistic],
      ['fold statistic', kfold.fold_statistic ?? kfold.target ?? 'average'],
      ['penalties', kfold.penalties.join(', ') || 'none'],
      ['penalties in the loss', kfold.penalties_in_loss ? 'yes' : 'no'],
      ['threshold', kfold.threshold],
      ['partitions', kfold.partitions.length],
    );
  }
  for (const [key, value] of Object.entries(records.settings ?? {})) {
    rows.push([SCAN_JSON_NAMES[key] ?? key, tableValue(value)]);
  }
  const tables: ReportTable[] = [
    { id: 'scan', title: 'Scan', columns: ['quantity', 'value'], rows },
  ];
  if (kfold !== undefined) {
    tables.push({
      id: 'partitions',
      title: 'k-fold partitions: each fold fits without its partition and is scored on it',
      columns: ['fold', 'held-out datasets', 'weight', 'overfit'],
      rows: kfold.partitions.map((partition, k) => [
        `fold ${k + 1}`,
        partition.datasets.join(', '),
        partition.weight,
        partition.overfit ? 'yes' : 'no',
      ]),
    });
  }
  const shared = sharedSettings(trials.map((trial) => trial.settings));
  if (shared.length > 0) {
    tables.push({
      id: 'shared-settings',
      title: 'Settings every trial shares',
      columns: ['setting', 'value'],
      rows: shared.map(({ setting, value }) => [setting.title, value]),
    });
  }
  const notes = [...records.problems];
  const sources = new Set(trials.map((trial) => trial.foldSource));
  for (const source of ['hyper_losses_chi2', 'hyper_losses_phi2'] as const) {
    if (sources.has(source)) {
      notes.push(
        `Fold losses: the file has no kfold_meta.fold_losses (n3fit's own tries.json), so each fold's loss is its held-out ${source.slice('hyper_losses_'.length)} (kfold_meta.${source}).`,
      );
    }
  }
  for (const trial of failed.filter((t) => t.failure !== undefined).slice(0, LISTED)) {
    notes.push(`Trial ${trial.tid} failed: ${trial.failure ?? ''}`);
  }
  return { id: 'scan-summary', title: 'Scan summary', notes, tables, figures: [] };
}

function trialRow(trial: ScanTrial, best: ReadonlySet<number>): TrialRow {
  return {
    ...trial.settings,
    tid: trial.tid,
    loss: trial.loss,
    status: trial.status,
    group: groupOf(trial, best),
  };
}

function settingsSection(
  records: ScanRecords,
  varying: readonly ScanSetting[],
  best: ReadonlySet<number>,
): ReportSection {
  const drawn = records.trials.filter((trial) => Number.isFinite(trial.loss));
  const notes: string[] = [];
  const lossless = records.trials.length - drawn.length;
  if (lossless > 0) notes.push(`${lossless} failed trial(s) without a loss are not drawn.`);
  if (varying.length === 0) {
    notes.push('Every trial has the same settings: nothing to draw the loss against.');
    return {
      id: 'scan-settings',
      title: 'Loss against each hyperparameter',
      notes,
      tables: [],
      figures: [],
    };
  }
  const rows = drawn.map((trial) => trialRow(trial, best));
  return {
    id: 'scan-settings',
    title: 'Loss against each hyperparameter',
    notes,
    tables: [],
    figures: drawn.length === 0 ? [] : [settingsFigure(rows, varying)],
  };
}

function foldsSection(records: ScanRecords, best: ReadonlySet<number>): ReportSection {
  const folds = foldNames(records.folds);
  const rows: FoldRow[] = records.trials.flatMap((trial) =>
    trial.foldLosses.flatMap((loss, k) =>
      Number.isFinite(loss)
        ? [{ tid: trial.tid, fold: folds[k] ?? `fold ${k + 1}`, loss, group: groupOf(trial, best) }]
        : [],
    ),
  );
  const notes: string[] = [];
  const without = records.trials.filter((trial) =>
    trial.foldLosses.every((l) => !Number.isFinite(l)),
  );
  if (without.length > 0) {
    notes.push(`Without fold losses (not drawn): ${listed(without.map((t) => t.tid))}.`);
  }
  return {
    id: 'scan-folds',
    title: 'Loss per fold',
    notes,
    tables: [],
    figures: rows.length === 0 ? [] : [foldFigure(rows, folds)],
  };
}

function bestSection(
  records: ScanRecords,
  ranked: readonly ScanTrial[],
  varying: readonly ScanSetting[],
): ReportSection {
  const folds = foldNames(records.folds);
  const table: ReportTable = {
    id: 'best-trials',
    title:
      ranked.length === 1
        ? 'The one ok trial'
        : `The ${Math.min(LISTED, ranked.length)} ok trials of lowest loss`,
    columns: ['rank', 'trial', 'loss', ...folds, ...varying.map((setting) => setting.title)],
    rows: ranked.slice(0, LISTED).map((trial, rank) => [
      rank + 1,
      trial.tid,
      trial.loss,
      ...folds.map((_, k) => {
        const loss = trial.foldLosses.at(k);
        return loss === undefined || !Number.isFinite(loss) ? '' : loss;
      }),
      ...varying.map((setting) => trial.settings[setting.name] ?? ''),
    ]),
  };
  return {
    id: 'scan-best',
    title: 'Best trials',
    notes: ranked.length === 0 ? ['No trial passed: no loss to rank.'] : [],
    tables: ranked.length === 0 ? [] : [table],
    figures: [],
  };
}

function historySection(records: ScanRecords, best: ReadonlySet<number>): ReportSection {
  let runningBest = Number.POSITIVE_INFINITY;
  const rows: HistoryRow[] = records.trials.map((trial) => {
    if (isOk(trial)) runningBest = Math.min(runningBest, trial.loss);
    return {
      tid: trial.tid,
      loss: Number.isFinite(trial.loss) ? trial.loss : null,
      group: groupOf(trial, best),
      runningBest: Number.isFinite(runningBest) ? runningBest : null,
    };
  });
  return {
    id: 'scan-history',
    title: 'Loss over the scan',
    notes: [],
    tables: [],
    figures: rows.some((row) => row.loss !== null) ? [historyFigure(rows)] : [],
  };
}

/**
 * The report of a hyperparameter scan (`partonfit hyperopt`, or n3fit's `--hyperopt`): the
 * summary (trials finished, ok and failed, the best trial, the k-fold settings and partitions,
 * partonfit's scan settings, the settings the trials share), the loss against each setting the
 * scan varied, the loss of each trial on each fold, the best 10 trials with their fold losses
 * and settings, and the loss over the trials with the best so far. Write it with `writeReport`.
 *
 * @throws InputFileError for a folder without `tries.json`, a `tries.json` that is not a list of
 *   trials (naming the file), or a scan without a finished trial
 */
export async function buildScanReport(scanFolder: string): Promise<Report> {
  const records = await readScanRecords(scanFolder);
  const ranked = rankedTrials(records.trials);
  const best = new Set(ranked.slice(0, MARKED).map((trial) => trial.tid));
  const varying = varyingSettings(records.trials.map((trial) => trial.settings));
  return {
    title: `partonfit scan report: ${records.name}`,
    fit: records.name,
    sections: [
      summarySection(records, ranked),
      settingsSection(records, varying, best),
      foldsSection(records, best),
      bestSection(records, ranked, varying),
      historySection(records, best),
    ],
    problems: records.problems,
  };
}
