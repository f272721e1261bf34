import type { TopLevelSpec } from 'vega-lite';
import type { DataRow, ReportFigure } from '../figures/report-figure.js';
import type { ScanSetting } from './trial-settings.js';

/**
 * The figures of a scan report, as Vega-Lite specifications with their data inline (the SVG
 * files and the page render the same ones).
 */

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** How the trials are told apart in every figure, in legend order. */
export const TRIAL_GROUPS = ['best 5', 'ok', 'failed'] as const;

/** One of {@link TRIAL_GROUPS}: the 5 `ok` trials of lowest loss, the other `ok` ones, failures. */
export type TrialGroup = (typeof TRIAL_GROUPS)[number];

const COLOR = {
  field: 'group',
  type: 'nominal',
  title: 'trials',
  scale: { domain: [...TRIAL_GROUPS], range: ['#d62728', '#4c78a8', '#999999'] },
} as const;
const SHAPE = {
  field: 'group',
  type: 'nominal',
  title: 'trials',
  scale: { domain: [...TRIAL_GROUPS], range: ['diamond', 'circle', 'cross'] },
} as const;
const POINT = { type: 'point', filled: true, size: 45, opacity: 0.85 } as const;

/** A trial with a loss to draw: its id, loss, group and hyperparameters by setting name. */
export interface TrialRow extends DataRow {
  readonly tid: number;
  readonly loss: number;
  readonly status: string;
  readonly group: TrialGroup;
}

/** The loss axis: log when every loss drawn is positive. */
function lossAxis(losses: readonly number[], title: string) {
  const log = losses.length > 0 && losses.every((loss) => loss > 0);
  return {
    field: 'loss',
    type: 'quantitative',
    title,
    scale: log ? { type: 'log' } : { zero: false },
  } as const;
}

function settingAxis(setting: ScanSetting) {
  const base = { field: setting.name, title: setting.title };
  switch (setting.scale) {
    case 'nominal':
      return { ...base, type: 'nominal', axis: { labelAngle: 0 } } as const;
    case 'ordinal':
      return { ...base, type: 'ordinal', axis: { labelAngle: 0 } } as const;
    case 'log':
      return {
        ...base,
        type: 'quantitative',
        scale: { type: 'log' },
        axis: { format: '.0e', tickCount: 4, labelOverlap: 'greedy' },
      } as const;
    case 'linear':
      return { ...base, type: 'quantitative', scale: { zero: false } } as const;
  }
}

/**
 * The loss of every trial against each setting the scan varied, one scatter each (the loss on a
 * log axis, shared by the panels): the best 5 trials in red diamonds, failed ones as grey
 * crosses at their penalised loss. Panel marks are named `setting_<name>`.
 */
export function settingsFigure(
  rows: readonly TrialRow[],
  settings: readonly ScanSetting[],
): ReportFigure {
  const y = lossAxis(
    rows.map((row) => row.loss),
    'loss',
  );
  const spec = {
    $schema: SCHEMA,
    data: { values: rows },
    columns: 3,
    resolve: { scale: { y: 'shared' } },
    concat: settings.map((setting) => ({
      name: `setting_${setting.name}`,
      width: 220,
      height: 170,
      transform: [{ filter: `isValid(datum[${JSON.stringify(setting.name)}])` }],
      mark: POINT,
      encoding: {
        x: settingAxis(setting),
        y,
        color: COLOR,
        shape: SHAPE,
        tooltip: [
          { field: 'tid', title: 'trial' },
          { field: 'loss', format: '.4g' },
          { field: 'status' },
          {
            field: setting.name,
            title: setting.title,
            ...(setting.scale === 'log' ? { format: '.3e' } : {}),
          },
        ],
      },
    })),
  } as TopLevelSpec;
  return {
    id: 'loss-vs-settings',
    title: 'Trial loss against the scanned settings',
    caption:
      'Each trial’s loss against every setting the scan varied: the 5 ok trials of lowest loss as red diamonds, the other ok trials as blue points, failed trials (above the k-fold threshold, their loss penalised) as grey crosses. Units of layer i are drawn for the trials with at least i layers.',
    spec,
    rows,
    series: [...TRIAL_GROUPS],
    panels: settings.map((setting) => setting.name),
  };
}

/** A trial's loss on one fold. */
export interface FoldRow extends DataRow {
  readonly tid: number;
  readonly fold: string;
  readonly loss: number;
  readonly group: TrialGroup;
}

/**
 * Each trial's loss on each fold (a strip per fold, the partition held out), the best 5 trials'
 * folds joined by lines.
 */
export function foldFigure(rows: readonly FoldRow[], folds: readonly string[]): ReportFigure {
  const x = { field: 'fold', type: 'nominal', title: null, sort: folds, axis: { labelAngle: 0 } };
  const y = lossAxis(
    rows.map((row) => row.loss),
    'fold loss',
  );
  const spec = {
    $schema: SCHEMA,
    width: { step: 110 },
    height: 300,
    data: { values: rows },
    layer: [
      {
        name: 'bestFolds',
        transform: [{ filter: "datum.group === 'best 5'" }],
        mark: { type: 'line', strokeWidth: 1, opacity: 0.6, color: '#d62728' },
        encoding: { x, y, detail: { field: 'tid', type: 'nominal' } },
      },
      {
        name: 'foldLosses',
        mark: POINT,
        encoding: {
          x,
          y,
          color: COLOR,
          shape: SHAPE,
          tooltip: [
            { field: 'tid', title: 'trial' },
            { field: 'fold' },
            { field: 'loss', format: '.4g' },
            { field: 'group', title: 'trials' },
          ],
        },
      },
    ],
  } as TopLevelSpec;
  return {
    id: 'fold-losses',
    title: 'Fold losses of every trial',
    caption:
      'Each trial’s loss on each fold (the fold’s partition held out of the fit), weighted as it counts in the trial’s loss; the best 5 trials’ folds are joined by lines. A trial above the k-fold threshold has no folds after the one that passed it.',
    spec,
    rows,
    series: [...TRIAL_GROUPS],
    panels: [''],
  };
}

/** A trial's loss in trial order, and the lowest `ok` loss up to it. */
export interface HistoryRow extends DataRow {
  readonly tid: number;
  readonly loss: number | null;
  readonly group: TrialGroup;
  readonly runningBest: number | null;
}

/** The loss against the trial id, with the lowest `ok` loss so far as a step line. */
export function historyFigure(rows: readonly HistoryRow[]): ReportFigure {
  const losses = rows.flatMap((row) => (row.loss === null ? [] : [row.loss]));
  const y = lossAxis(losses, 'loss');
  const x = { field: 'tid', type: 'quantitative', title: 'trial', axis: { tickMinStep: 1 } };
  const spec = {
    $schema: SCHEMA,
    width: 640,
    height: 300,
    data: { values: rows },
    layer: [
      {
        name: 'runningBest',
        transform: [{ filter: 'isValid(datum.runningBest)' }],
        mark: { type: 'line', interpolate: 'step-after', color: '#d62728', strokeWidth: 1.5 },
        encoding: { x, y: { ...y, field: 'runningBest' } },
      },
      {
        name: 'trials',
        transform: [{ filter: 'isValid(datum.loss)' }],
        mark: POINT,
        encoding: {
          x,
          y,
          color: COLOR,
          shape: SHAPE,
          tooltip: [
            { field: 'tid', title: 'trial' },
            { field: 'loss', format: '.4g' },
            { field: 'runningBest', title: 'best so far', format: '.4g' },
          ],
        },
      },
    ],
  } as TopLevelSpec;
  return {
    id: 'trial-losses',
    title: 'Loss against trial number',
    caption:
      'Each trial’s loss against its trial number, and the lowest loss of an ok trial so far (the red step line): how the sampler converged.',
    spec,
    rows,
    series: [...TRIAL_GROUPS],
    panels: [''],
  };
}
