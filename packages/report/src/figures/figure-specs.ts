import type { TopLevelSpec } from 'vega-lite';
import type { PdfBandRow, PdfReplicaRow } from '../pdf/pdf-bands.js';
import type { PdfDistanceRow } from '../pdf/pdf-distances.js';
import type { DataRow, ReportFigure } from './report-figure.js';

/**
 * The figure specifications of the report, in one place: each function returns a Vega-Lite
 * specification with its data inline, which the SVG files and the page both render.
 */

/** The Vega-Lite schema every figure of a report names. */
export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const PANEL_WIDTH = 220;
const PANEL_HEIGHT = 160;
/** Legends show set names whole (LHAPDF names are long). */
const LEGEND = { labelLimit: 400 } as const;

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** How a PDF figure draws x and what its y is. */
export interface PdfFigureOptions {
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  readonly xScale: 'log' | 'linear';
  /** Whether y is a ratio to a reference set. */
  readonly ratio: boolean;
  /** Replica curves to draw (thin lines, with a checkbox in the page to hide them). */
  readonly replicas?: readonly PdfReplicaRow[];
}

/**
 * x·f (or its ratio to a reference) against x, one panel per flavour: for each set its central
 * curve, its 68 % confidence band (filled) and its 1σ band (dashed lines), where it has one.
 */
export function pdfFigure(rows: readonly PdfBandRow[], options: PdfFigureOptions): ReportFigure {
  const series = unique(rows.map((row) => row.set));
  const panels = unique(rows.map((row) => row.flavour));
  const x = {
    field: 'x',
    type: 'quantitative',
    title: 'x',
    scale: options.xScale === 'log' ? { type: 'log' } : { type: 'linear', domain: [0, 1] },
    axis: options.xScale === 'log' ? { format: '.0e', tickCount: 5 } : {},
  } as const;
  const color = {
    field: 'set',
    type: 'nominal',
    title: 'set',
    sort: series,
    legend: LEGEND,
  } as const;
  const yTitle = options.ratio ? 'ratio to the reference' : 'x·f(x, Q)';
  const sigmaLine = (field: string) => ({
    name: field,
    transform: [{ filter: 'datum.band' }],
    mark: { type: 'line', strokeDash: [4, 3], strokeWidth: 1, clip: true },
    encoding: {
      x,
      y: { field, type: 'quantitative', title: yTitle },
      color,
    },
  });
  const replicas = options.replicas ?? [];
  const replicaLayer = {
    name: 'replicas',
    transform: [{ filter: 'isValid(datum.replica) && showReplicas' }],
    mark: { type: 'line', strokeWidth: 0.6, opacity: 0.35, clip: true },
    encoding: {
      x,
      y: { field: 'value', type: 'quantitative', title: yTitle },
      color,
      detail: { field: 'replica', type: 'nominal' },
    },
  };
  const spec = {
    $schema: SCHEMA,
    data: { values: [...rows, ...replicas] },
    ...(replicas.length === 0
      ? {}
      : {
          params: [
            {
              name: 'showReplicas',
              value: true,
              bind: { input: 'checkbox', name: 'replica curves ' },
            },
          ],
        }),
    facet: { field: 'flavour', type: 'nominal', title: null, sort: panels },
    columns: 4,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: PANEL_WIDTH,
      height: PANEL_HEIGHT,
      layer: [
        ...(replicas.length === 0 ? [] : [replicaLayer]),
        {
          name: 'band68',
          transform: [{ filter: 'datum.band' }],
          mark: { type: 'area', opacity: 0.3, clip: true },
          encoding: {
            x,
            y: { field: 'lower68', type: 'quantitative', title: yTitle },
            y2: { field: 'upper68' },
            color,
          },
        },
        {
          name: 'central',
          transform: [{ filter: '!isValid(datum.replica)' }],
          mark: { type: 'line', strokeWidth: 1.5, clip: true },
          encoding: {
            x,
            y: { field: 'central', type: 'quantitative', title: yTitle },
            color,
            tooltip: [
              { field: 'set' },
              { field: 'x', format: '.3e' },
              { field: 'central', format: '.4g' },
              { field: 'lower68', format: '.4g' },
              { field: 'upper68', format: '.4g' },
            ],
          },
        },
        sigmaLine('upperSigma'),
        sigmaLine('lowerSigma'),
      ],
    },
  } as TopLevelSpec;
  return {
    id: options.id,
    title: options.title,
    caption: options.caption,
    spec,
    rows: [...rows, ...replicas] as unknown as DataRow[],
    series,
    panels,
  };
}

/**
 * NNPDF's statistical distances of each set from the reference against x, one panel per
 * flavour: between central values (solid) and between uncertainties (dashed).
 */
export function distanceFigure(rows: readonly PdfDistanceRow[], reference: string): ReportFigure {
  const series = unique(rows.map((row) => row.set));
  const panels = unique(rows.map((row) => row.flavour));
  const spec = {
    $schema: SCHEMA,
    data: { values: rows },
    transform: [{ fold: ['central', 'uncertainty'], as: ['distance', 'value'] }],
    facet: { field: 'flavour', type: 'nominal', title: null, sort: panels },
    columns: 4,
    spec: {
      width: PANEL_WIDTH,
      height: 120,
      name: 'distances',
      mark: { type: 'line', strokeWidth: 1.2 },
      encoding: {
        x: {
          field: 'x',
          type: 'quantitative',
          scale: { type: 'log' },
          axis: { format: '.0e', tickCount: 5 },
        },
        y: { field: 'value', type: 'quantitative', title: 'distance' },
        color: { field: 'set', type: 'nominal', sort: series, legend: LEGEND },
        strokeDash: { field: 'distance', type: 'nominal' },
        tooltip: [{ field: 'set' }, { field: 'distance' }, { field: 'x' }, { field: 'value' }],
      },
    },
  } as TopLevelSpec;
  return {
    id: 'pdf-distances',
    title: `Distances from ${reference}`,
    caption: `NNPDF’s statistical distances from ${reference} (NNPDF3.0, appendix A): between central values (solid) and uncertainties (dashed), in units of their statistical uncertainty; values of order 1 mean agreement within the finite number of replicas.`,
    spec,
    rows: rows as unknown as DataRow[],
    series,
    panels,
  };
}

/** A point of a training curve. */
export interface TrainingRow extends DataRow {
  readonly replica: string;
  readonly epoch: number;
  readonly loss: 'training' | 'validation';
  readonly chi2: number;
}

/** A replica's stopping: the epoch whose weights it kept. */
export interface StoppingRow extends DataRow {
  readonly replica: string;
  readonly bestEpoch: number;
  readonly stopEpoch: number | null;
}

/**
 * Training and validation χ² (as logged in `chi2exps.log`) against the epoch, one curve each per
 * replica, and a vertical rule at each replica's best epoch.
 */
export function trainingFigure(
  curves: readonly TrainingRow[],
  stops: readonly StoppingRow[],
): ReportFigure {
  const series = unique(curves.map((row) => row.replica));
  // A legend of a hundred replicas says nothing: the tooltips name them.
  const color = {
    field: 'replica',
    type: 'nominal',
    sort: series,
    ...(series.length > 12 ? { legend: null } : {}),
  } as const;
  const spec = {
    $schema: SCHEMA,
    width: 640,
    height: 320,
    layer: [
      {
        name: 'curves',
        data: { values: curves },
        mark: { type: 'line', strokeWidth: 1.2, point: false },
        encoding: {
          x: { field: 'epoch', type: 'quantitative', title: 'epoch' },
          y: { field: 'chi2', type: 'quantitative', title: 'χ² per point', scale: { type: 'log' } },
          color,
          strokeDash: { field: 'loss', type: 'nominal', title: 'loss' },
          tooltip: [{ field: 'replica' }, { field: 'loss' }, { field: 'epoch' }, { field: 'chi2' }],
        },
      },
      {
        name: 'bestEpochs',
        data: { values: stops },
        mark: { type: 'rule', strokeWidth: 1, opacity: 0.7 },
        encoding: {
          x: { field: 'bestEpoch', type: 'quantitative' },
          color,
          tooltip: [{ field: 'replica' }, { field: 'bestEpoch' }, { field: 'stopEpoch' }],
        },
      },
    ],
  } as TopLevelSpec;
  return {
    id: 'training',
    title: 'Training curves',
    caption:
      'Training (solid) and validation (dashed) χ² per point of each replica every logged epoch; the vertical rules are the best epochs, whose weights the replicas keep.',
    spec,
    rows: [...curves, ...stops],
    series,
    panels: [''],
  };
}

/** A dataset's χ² per point for one set. */
export interface Chi2Row extends DataRow {
  readonly dataset: string;
  readonly set: string;
  readonly ndata: number;
  readonly chi2: number;
  readonly chi2PerPoint: number;
}

/** χ² per point of each dataset, one bar per set. */
export function chi2Figure(rows: readonly Chi2Row[]): ReportFigure {
  const series = unique(rows.map((row) => row.set));
  const spec = {
    $schema: SCHEMA,
    width: { step: 14 * Math.max(series.length, 1) + 8 },
    height: 260,
    data: { values: rows },
    name: 'bars',
    mark: 'bar',
    encoding: {
      x: { field: 'dataset', type: 'nominal', title: null, axis: { labelAngle: -40 } },
      xOffset: { field: 'set', sort: series },
      y: { field: 'chi2PerPoint', type: 'quantitative', title: 'χ² per point' },
      color: { field: 'set', type: 'nominal', sort: series, legend: LEGEND },
      tooltip: [
        { field: 'dataset' },
        { field: 'set' },
        { field: 'ndata' },
        { field: 'chi2', format: '.4f' },
        { field: 'chi2PerPoint', format: '.4f' },
      ],
    },
  } as TopLevelSpec;
  return {
    id: 'chi2',
    title: 'χ² per dataset',
    caption:
      'χ²/n of member 0 (for a fit, the mean of its replicas’ predictions) for each dataset against its data with the experimental covariance, as partonfit predict computes it.',
    spec,
    rows,
    series,
    panels: [''],
  };
}

/** One data point and one set's prediction for it. */
export interface DataTheoryRow extends DataRow {
  readonly dataset: string;
  readonly point: number;
  /** The kinematic variable the points are drawn against (or the point index). */
  readonly kinematic: number;
  readonly set: string;
  readonly data: number;
  readonly dataError: number;
  /** The prediction (member 0) and the replicas' standard deviation (0 without replicas). */
  readonly theory: number;
  readonly theoryError: number;
  /** (T − D) / sqrt(σ_D² + σ_T²). */
  readonly pull: number;
}

/**
 * Theory over data for each dataset (one panel each): the data as 1 ± σ_D/D (grey bars) and
 * each set's prediction with its replicas' 1σ, against a kinematic variable.
 */
export function dataTheoryFigure(rows: readonly DataTheoryRow[], xTitle: string): ReportFigure {
  const series = unique(rows.map((row) => row.set));
  const panels = unique(rows.map((row) => row.dataset));
  const x = { field: 'kinematic', type: 'quantitative', title: xTitle, scale: { zero: false } };
  const color = { field: 'set', type: 'nominal', sort: series, legend: LEGEND } as const;
  const spec = {
    $schema: SCHEMA,
    data: { values: rows },
    transform: [
      // A ratio to data compatible with zero says nothing: those points are in the pulls only.
      { filter: 'abs(datum.data) > datum.dataError' },
      { calculate: 'datum.theory / datum.data', as: 'ratio' },
      { calculate: '(datum.theory - datum.theoryError) / datum.data', as: 'ratioLow' },
      { calculate: '(datum.theory + datum.theoryError) / datum.data', as: 'ratioHigh' },
      { calculate: '1 - datum.dataError / abs(datum.data)', as: 'dataLow' },
      { calculate: '1 + datum.dataError / abs(datum.data)', as: 'dataHigh' },
    ],
    facet: { field: 'dataset', type: 'nominal', title: null, sort: panels },
    columns: 3,
    resolve: { scale: { x: 'independent', y: 'independent' } },
    spec: {
      width: PANEL_WIDTH,
      height: PANEL_HEIGHT,
      layer: [
        {
          name: 'data',
          transform: [{ filter: `datum.set === ${JSON.stringify(series[0] ?? '')}` }],
          mark: { type: 'rule', color: '#999', strokeWidth: 4, opacity: 0.6 },
          encoding: {
            x,
            y: { field: 'dataLow', type: 'quantitative', title: 'theory / data' },
            y2: { field: 'dataHigh' },
          },
        },
        {
          name: 'theory',
          mark: { type: 'point', filled: true, size: 20 },
          encoding: {
            x,
            y: { field: 'ratio', type: 'quantitative' },
            color,
            tooltip: [
              { field: 'dataset' },
              { field: 'point' },
              { field: 'set' },
              { field: 'data', format: '.4g' },
              { field: 'dataError', format: '.3g' },
              { field: 'theory', format: '.4g' },
              { field: 'pull', format: '.2f' },
            ],
          },
        },
        {
          name: 'theoryError',
          mark: { type: 'rule', strokeWidth: 1 },
          encoding: {
            x,
            y: { field: 'ratioLow', type: 'quantitative' },
            y2: { field: 'ratioHigh' },
            color,
          },
        },
      ],
    },
  } as TopLevelSpec;
  return {
    id: 'data-theory',
    title: 'Data and theory',
    caption:
      'Theory over data for each dataset: the grey bars are the data with their total uncertainty (square root of the covariance’s diagonal), the points each set’s prediction with its replicas’ 1σ. Points whose data are compatible with zero (|D| ≤ σ_D) are shown in the pulls only.',
    spec,
    rows,
    series,
    panels,
  };
}

/** Pulls (T − D)/sqrt(σ_D² + σ_T²) of each point, one panel per dataset, bars per set. */
export function pullFigure(rows: readonly DataTheoryRow[], xTitle: string): ReportFigure {
  const series = unique(rows.map((row) => row.set));
  const panels = unique(rows.map((row) => row.dataset));
  const spec = {
    $schema: SCHEMA,
    data: { values: rows },
    facet: { field: 'dataset', type: 'nominal', title: null, sort: panels },
    columns: 3,
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: PANEL_WIDTH,
      height: 120,
      name: 'pulls',
      mark: { type: 'point', filled: true, size: 20 },
      encoding: {
        x: { field: 'kinematic', type: 'quantitative', title: xTitle, scale: { zero: false } },
        y: { field: 'pull', type: 'quantitative', title: 'pull' },
        color: { field: 'set', type: 'nominal', sort: series, legend: LEGEND },
        tooltip: [
          { field: 'dataset' },
          { field: 'point' },
          { field: 'set' },
          { field: 'pull', format: '.2f' },
        ],
      },
    },
  } as TopLevelSpec;
  return {
    id: 'pulls',
    title: 'Pulls',
    caption: 'Pulls (T − D)/√(σ_D² + σ_T²) of every data point for each set.',
    spec,
    rows,
    series,
    panels,
  };
}

/** One point of a fitted flavour's effective exponent: its mean and 68 % band over the replicas. */
export interface ExponentCurveRow extends DataRow {
  readonly flavour: string;
  readonly x: number;
  readonly mean: number;
  readonly lower68: number;
  readonly upper68: number;
}

/** A preprocessing range of a fitted flavour: the one the fit used, or the one proposed. */
export interface ExponentRangeRow extends DataRow {
  readonly flavour: string;
  readonly range: 'used' | 'proposed';
  readonly low: number;
  readonly high: number;
}

/** How an effective-exponent figure draws x and names its exponent. */
export interface ExponentFigureOptions {
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  /** The y axis title, e.g. `α_eff`. */
  readonly exponent: string;
  readonly xScale: 'log' | 'linear';
  /** The x range drawn: where the curves are. */
  readonly xDomain: readonly [number, number];
}

/** The colours of the ranges: the runcard's (used) and the next fit's (proposed). */
const RANGE_COLOURS = { domain: ['used', 'proposed'], range: ['#f58518', '#54a24b'] };
const EXPONENT_COLOUR = '#4c78a8';

/**
 * A fitted flavour's effective exponent against x, one panel per flavour: the replicas' mean
 * (line) and 68 % band (filled), and the preprocessing ranges the fit used and the ones proposed
 * for the next fit as horizontal bands across the panel.
 */
export function effectiveExponentFigure(
  curves: readonly ExponentCurveRow[],
  ranges: readonly ExponentRangeRow[],
  options: ExponentFigureOptions,
): ReportFigure {
  const panels = unique([...curves, ...ranges].map((row) => row.flavour));
  const x = {
    field: 'x',
    type: 'quantitative',
    title: 'x',
    scale: { type: options.xScale, domain: [...options.xDomain] },
    axis: options.xScale === 'log' ? { format: '.0e', tickCount: 4 } : {},
  } as const;
  const y = (field: string) =>
    ({ field, type: 'quantitative', title: options.exponent, scale: { zero: false } }) as const;
  const spec = {
    $schema: SCHEMA,
    data: { values: [...curves, ...ranges] },
    facet: { field: 'flavour', type: 'nominal', title: null, sort: panels },
    columns: 4,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: PANEL_WIDTH,
      height: PANEL_HEIGHT,
      layer: [
        {
          name: 'ranges',
          transform: [{ filter: 'isValid(datum.range)' }],
          mark: { type: 'rect', opacity: 0.25 },
          encoding: {
            y: y('low'),
            y2: { field: 'high' },
            color: { field: 'range', type: 'nominal', title: 'range', scale: RANGE_COLOURS },
            tooltip: [
              { field: 'flavour' },
              { field: 'range' },
              { field: 'low' },
              { field: 'high' },
            ],
          },
        },
        {
          name: 'band68',
          transform: [{ filter: '!isValid(datum.range)' }],
          mark: { type: 'area', opacity: 0.3, color: EXPONENT_COLOUR, clip: true },
          encoding: { x, y: y('lower68'), y2: { field: 'upper68' } },
        },
        {
          name: 'mean',
          transform: [{ filter: '!isValid(datum.range)' }],
          mark: { type: 'line', strokeWidth: 1.5, color: EXPONENT_COLOUR, clip: true },
          encoding: {
            x,
            y: y('mean'),
            tooltip: [
              { field: 'flavour' },
              { field: 'x', format: '.3e' },
              { field: 'mean', format: '.4g' },
              { field: 'lower68', format: '.4g' },
              { field: 'upper68', format: '.4g' },
            ],
          },
        },
      ],
    },
  } as TopLevelSpec;
  return {
    id: options.id,
    title: options.title,
    caption: options.caption,
    spec,
    rows: [...curves, ...ranges],
    series: ['used', 'proposed'],
    panels,
  };
}
