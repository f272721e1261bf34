import { trainingFigure, type StoppingRow, type TrainingRow } from '../figures/figure-specs.js';
import type { ReportSection, ReportTable } from '../render/html-page.js';
import type { FitRecords } from '../records/fit-records.js';

/**
 * The training section: each replica's training and validation χ² with its best epoch, and a
 * table of stopping, χ², positivity, arc lengths and integrability; undefined without logs.
 */
export function trainingSection(records: FitRecords): ReportSection | undefined {
  const replicas = records.replicas.filter((replica) => replica.log.length > 0);
  if (replicas.length === 0) return undefined;
  const curves: TrainingRow[] = replicas.flatMap((replica) =>
    replica.log.flatMap((entry) => [
      {
        replica: `replica ${replica.replica}`,
        epoch: entry.epoch,
        loss: 'training' as const,
        chi2: entry.training,
      },
      {
        replica: `replica ${replica.replica}`,
        epoch: entry.epoch,
        loss: 'validation' as const,
        chi2: entry.validation,
      },
    ]),
  );
  const stops: StoppingRow[] = replicas
    .filter((replica) => replica.bestEpoch !== undefined)
    .map((replica) => ({
      replica: `replica ${replica.replica}`,
      bestEpoch: replica.bestEpoch ?? 0,
      stopEpoch: replica.stopEpoch ?? null,
    }));
  const table: ReportTable = {
    id: 'training',
    title:
      'Replicas: stopping, χ², positivity, arc lengths (Σ, g, V, V3, V8), integrability (V, T3, V3, T8, V8)',
    columns: [
      'replica',
      'best epoch',
      'stop epoch',
      'χ²/n',
      'positivity',
      'arc lengths',
      'integrability',
    ],
    rows: records.replicas.map((replica) => [
      replica.replica,
      replica.bestEpoch ?? '',
      replica.stopEpoch ?? '',
      replica.chi2,
      replica.positive ? 'pass' : 'veto',
      replica.arcLengths.map((value) => value.toFixed(3)).join(' '),
      replica.integrability.map((value) => value.toPrecision(2)).join(' '),
    ]),
  };
  return {
    id: 'training',
    title: 'Training',
    notes: [],
    tables: [table],
    figures: [trainingFigure(curves, stops)],
  };
}

/** The closure-test section (bias/variance from `summary.json`); undefined for other fits. */
export function closureSection(records: FitRecords): ReportSection | undefined {
  const closure = records.runcard.closuretest;
  if (closure?.fakedata !== true) return undefined;
  const quality = records.summary?.quality;
  return {
    id: 'closure',
    title: 'Closure test',
    notes: [
      `The data were made from ${closure.fakepdf ?? 'a known PDF'}; the PDF figures draw it as “truth”.`,
      ...(quality?.biasVarianceRatio === undefined
        ? [
            'No bias/variance: summary.json has no fit-level quality (several fit processes, or one replica).',
          ]
        : []),
    ],
    tables:
      quality?.biasVarianceRatio === undefined
        ? []
        : [
            {
              id: 'closure',
              title: 'Bias and variance in data space (experimental covariance)',
              columns: ['quantity', 'value'],
              rows: [
                ['bias / variance', quality.biasVarianceRatio],
                [
                  'χ²/n of the replica average against the fitted data',
                  quality.averageChi2PerPoint,
                ],
              ],
            },
          ],
    figures: [],
  };
}
