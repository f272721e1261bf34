import { replicaParameters, replicaParametersEntry } from '@partonfit/core';
import { fitCovarianceName } from '@partonfit/fit-folder';
import { chi2Figure, type Chi2Row } from '../figures/figure-specs.js';
import type { ReportFigure } from '../figures/report-figure.js';
import type { ReportSection, ReportTable } from '../render/html-page.js';
import type { FitRecords } from '../records/fit-records.js';

/**
 * The fit summary: runcard essentials, replicas passed, vetoed and discarded (and why),
 * backend and timings, and the χ² table and figure of the fit and each compare set.
 */
export function summarySection(records: FitRecords, chi2: readonly Chi2Row[]): ReportSection {
  const { runcard, summary, postfit } = records;
  const parameters = runcard.parameters;
  const own =
    runcard.parameters_per_replica === undefined ? '' : ' (replica 1; each replica’s below)';
  const essentials: ReportTable = {
    id: 'runcard',
    title: 'Runcard',
    columns: ['setting', 'value'],
    rows: [
      ['description', runcard.description ?? ''],
      ['datasets', runcard.dataset_inputs.map((input) => input.dataset).join(', ')],
      ['positivity sets', runcard.positivity.posdatasets.map((set) => set.dataset).join(', ')],
      [
        'network',
        `${parameters.nodes_per_layer.join('-')} (${parameters.activation_per_layer.join(', ')})${own}`,
      ],
      [
        'optimizer',
        `${parameters.optimizer.optimizer_name}, learning rate ${parameters.optimizer.learning_rate}${own}`,
      ],
      ['epochs', `${parameters.epochs}${own}`],
      ['stopping patience', `${parameters.stopping_patience}${own}`],
      [
        'fit basis',
        `${runcard.fitting.fitbasis}: ${runcard.fitting.basis.map((entry) => entry.fl).join(', ')}`,
      ],
      ['seeds', `trvlseed ${runcard.trvlseed}, nnseed ${runcard.nnseed}, mcseed ${runcard.mcseed}`],
      ...(runcard.closuretest?.fakedata === true
        ? [
            [
              'closure test',
              `fakepdf ${runcard.closuretest.fakepdf ?? ''}, noise ${String(runcard.closuretest.fakenoise)}, filterseed ${runcard.closuretest.filterseed}`,
            ] as [string, string],
          ]
        : []),
    ],
  };
  const replicaRows: (string | number)[][] = [];
  if (summary !== undefined) {
    replicaRows.push(
      ['fitted', summary.replicas.length],
      ['passed positivity', summary.passed.length],
      ['vetoed by positivity', summary.vetoed.join(', ') || 'none'],
      [
        'diverged',
        summary.diverged.map((entry) => `${entry.replica} (epoch ${entry.epoch})`).join(', ') ||
          'none',
      ],
      ['backend', summary.backend],
      ['epochs run', summary.epochsRun],
      ['set-up (s)', summary.seconds.setup],
      ['training (s)', summary.seconds.training],
      ['ms per step', summary.seconds.msPerStep],
    );
    if (summary.quality !== undefined) {
      const withS = summary.theoryCovariance?.inFitting === true ? 'C + S, ' : '';
      replicaRows.push([
        `χ²/n of the replica average (fitted data, ${withS}C = ${fitCovarianceName(runcard)})`,
        summary.quality.averageChi2PerPoint,
      ]);
    }
  }
  if (postfit !== undefined) {
    replicaRows.push(['kept by postfit', postfit.selected.length]);
    for (const { replica, reasons } of postfit.discarded) {
      replicaRows.push([`discarded: replica ${replica}`, reasons.join(', ')]);
    }
    for (const { replica, problem } of postfit.invalid)
      replicaRows.push([`invalid: replica ${replica}`, problem]);
  }
  const tables: ReportTable[] = [essentials];
  const hyperparameters = hyperparameterTable(records);
  if (hyperparameters !== undefined) tables.push(hyperparameters);
  if (replicaRows.length > 0) {
    tables.push({
      id: 'replicas',
      title: 'Replicas, backend and timings',
      columns: ['quantity', 'value'],
      rows: replicaRows,
    });
  }
  const figures: ReportFigure[] = [];
  if (chi2.length > 0) {
    tables.push(chi2Table(chi2));
    figures.push(chi2Figure(chi2));
  }
  return { id: 'summary', title: 'Fit summary', notes: records.problems, tables, figures };
}

function chi2Table(rows: readonly Chi2Row[]): ReportTable {
  const sets = [...new Set(rows.map((row) => row.set))];
  const datasets = [...new Set(rows.map((row) => row.dataset))];
  const find = (dataset: string, set: string) =>
    rows.find((row) => row.dataset === dataset && row.set === set);
  const body = datasets.map((dataset) => [
    dataset,
    find(dataset, sets[0])?.ndata ?? 0,
    ...sets.map((set) => find(dataset, set)?.chi2PerPoint ?? Number.NaN),
  ]);
  const total = sets.map((set) => {
    const own = rows.filter((row) => row.set === set);
    const chi2 = own.reduce((sum, row) => sum + row.chi2, 0);
    return chi2 / own.reduce((sum, row) => sum + row.ndata, 0);
  });
  const ndata = rows.filter((row) => row.set === sets[0]).reduce((sum, row) => sum + row.ndata, 0);
  return {
    id: 'chi2',
    title:
      'χ²/n per dataset (experimental covariance, member 0 — for a fit the mean of its replicas’ predictions)',
    columns: ['dataset', 'points', ...sets],
    rows: [...body, ['total', ndata, ...total]],
  };
}

/**
 * Each fitted replica's hyperparameters, for a fit whose replicas have their own
 * (`parameters_per_replica`, `trial_specs`): its entry (and scan trial), network, optimiser,
 * epochs and patience, positivity schedule, and how its training ended; undefined otherwise.
 */
function hyperparameterTable(records: FitRecords): ReportTable | undefined {
  const { runcard, postfit } = records;
  if (runcard.parameters_per_replica === undefined) return undefined;
  const kept = new Set(postfit?.selected.map(({ replica }) => replica));
  const withTrials = records.replicas.some(({ trial }) => trial !== undefined);
  const rows = records.replicas.map((training) => {
    const { replica } = training;
    const own = replicaParameters(runcard, replica);
    const { optimizer, positivity } = own;
    return [
      replica,
      (replicaParametersEntry(runcard, replica) ?? 0) + 1,
      ...(withTrials ? [training.trial ?? ''] : []),
      `${own.nodes_per_layer.join('-')} (${own.activation_per_layer.join(', ')})`,
      optimizer.optimizer_name,
      optimizer.learning_rate,
      optimizer.clipnorm,
      own.epochs,
      own.stopping_patience,
      [
        positivity.initial === undefined ? '' : `initial ${positivity.initial}`,
        positivity.multiplier === undefined ? '' : `multiplier ${positivity.multiplier}`,
      ]
        .filter((part) => part !== '')
        .join(', ') || 'from maxlambda',
      training.stopEpoch ?? '',
      training.chi2,
      postfit === undefined ? '' : kept.has(replica) ? 'yes' : 'no',
    ];
  });
  return {
    id: 'hyperparameters',
    title: 'Hyperparameters of each replica',
    columns: [
      'replica',
      'entry',
      ...(withTrials ? ['trial'] : []),
      'network',
      'optimizer',
      'learning rate',
      'clipnorm',
      'epochs',
      'patience',
      'positivity',
      'stop epoch',
      'χ²/n',
      'kept by postfit',
    ],
    rows,
  };
}
