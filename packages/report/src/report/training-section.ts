import { fitCovarianceName } from '@partonfit/fit-folder';
import { trainingFigure, type StoppingRow, type TrainingRow } from '../figures/figure-specs.js';
import type { ReportSection, ReportTable } from '../render/html-page.js';
import type { DatasetBiasVariance } from '../chi2/closure-bias.js';
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

/**
 * The closure-test section: bias and variance in data space per dataset (from the replicas'
 * predictions and the truth's, where the report computed them) and the fit's own fit-level
 * numbers from `summary.json`; undefined for a fit that is not a closure test.
 */
export function closureSection(
  records: FitRecords,
  biasVariance: readonly DatasetBiasVariance[],
): ReportSection | undefined {
  const closure = records.runcard.closuretest;
  if (closure?.fakedata !== true) return undefined;
  const quality = records.summary?.quality;
  const tables: ReportTable[] = [];
  if (biasVariance.length > 0) {
    const bias = biasVariance.reduce((sum, row) => sum + row.bias, 0);
    const variance = biasVariance.reduce((sum, row) => sum + row.variance, 0);
    tables.push({
      id: 'closure-datasets',
      title:
        'Bias and variance per dataset (each dataset’s experimental covariance, its commondata after cuts)',
      columns: ['dataset', 'points', 'bias', 'variance', 'bias / variance'],
      rows: [
        ...biasVariance.map((row) => [
          row.dataset,
          row.ndata,
          row.bias,
          row.variance,
          row.bias / row.variance,
        ]),
        [
          'total',
          biasVariance.reduce((sum, row) => sum + row.ndata, 0),
          bias,
          variance,
          bias / variance,
        ],
      ],
    });
  }
  if (quality?.biasVarianceRatio !== undefined) {
    tables.push({
      id: 'closure',
      title: `The fit’s own numbers (summary.json: the fitted data, the fit’s covariance: ${records.summary?.theoryCovariance?.inFitting === true ? 'C + S, ' : ''}C = ${fitCovarianceName(records.runcard)})`,
      columns: ['quantity', 'value'],
      rows: [
        ['bias / variance', quality.biasVarianceRatio],
        ['χ²/n of the replica average against the fitted data', quality.averageChi2PerPoint],
      ],
    });
  }
  return {
    id: 'closure',
    title: 'Closure test',
    notes: [
      `The data were made from ${closure.fakepdf ?? 'a known PDF'}; the PDF figures draw it as “truth”.`,
      ...(tables.length === 0
        ? [
            'No bias/variance: no predictions of the replicas, and no fit-level numbers in summary.json.',
          ]
        : []),
    ],
    tables,
    figures: [],
  };
}
