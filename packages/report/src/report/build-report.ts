import { basename, isAbsolute, join, resolve } from 'node:path';
import { PartonfitError } from '@partonfit/core';
import { closureTruth, covarianceMatrix, inputPaths } from '@partonfit/fktables';
import { isFitFolder } from '@partonfit/trainer';
import {
  compareWithData,
  predictingPdf,
  runcardDatasets,
  type DatasetComparison,
} from '../chi2/dataset-predictions.js';
import {
  chi2Figure,
  dataTheoryFigure,
  distanceFigure,
  pdfFigure,
  pullFigure,
  trainingFigure,
  type Chi2Row,
  type DataTheoryRow,
  type StoppingRow,
  type TrainingRow,
} from '../figures/figure-specs.js';
import type { ReportFigure } from '../figures/report-figure.js';
import type { ReportSection, ReportTable } from '../render/html-page.js';
import {
  pdfBandRows,
  pdfReplicaRows,
  type PdfBandOptions,
  type PdfBasis,
} from '../pdf/pdf-bands.js';
import { pdfDistanceRows } from '../pdf/pdf-distances.js';
import {
  fitPdfReplicas,
  lhapdfPdfReplicas,
  singlePdf,
  type PdfReplicas,
} from '../pdf/pdf-replicas.js';
import { readFitRecords, type FitRecords } from '../records/fit-records.js';

/** Options of {@link buildReport}. */
export interface ReportOptions {
  /** LHAPDF set folders or fit folders to compare with; the first is the ratios' reference. */
  readonly compare?: readonly string[];
  /** Whether to compute the χ² table and data–theory figures (they need a tfjs backend). */
  readonly predictions?: boolean;
  /** Whether the PDF figures also draw every replica's curve (default false). */
  readonly replicaCurves?: boolean;
}

/** A fit's report: its sections, ready to write ({@link writeReport}). */
export interface Report {
  readonly title: string;
  readonly fit: string;
  readonly sections: readonly ReportSection[];
  /** What could not be shown, and why. */
  readonly problems: readonly string[];
}

/** The message of a partonfit error (bad input), which the report shows; anything else is a bug. */
function problemOf(error: unknown): string {
  if (error instanceof PartonfitError) return error.message;
  throw error;
}

function summarySection(records: FitRecords, chi2: readonly Chi2Row[]): ReportSection {
  const { runcard, summary, postfit } = records;
  const parameters = runcard.parameters;
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
        `${parameters.nodes_per_layer.join('-')} (${parameters.activation_per_layer.join(', ')})`,
      ],
      [
        'optimizer',
        `${parameters.optimizer.optimizer_name}, learning rate ${parameters.optimizer.learning_rate}`,
      ],
      ['epochs', parameters.epochs],
      ['stopping patience', parameters.stopping_patience],
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
      replicaRows.push([
        'χ²/n of the replica average (fitted data)',
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
  if (replicaRows.length > 0) {
    tables.push({
      id: 'replicas',
      title: 'Replicas, backend and timings',
      columns: ['', ''],
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

const PDF_VIEWS: readonly { basis: PdfBasis; xScale: 'log' | 'linear' }[] = [
  { basis: 'flavour', xScale: 'log' },
  { basis: 'flavour', xScale: 'linear' },
  { basis: 'evolution', xScale: 'log' },
  { basis: 'evolution', xScale: 'linear' },
];

function pdfSection(
  sets: readonly PdfReplicas[],
  notes: readonly string[],
  replicaCurves: boolean,
): ReportSection {
  const [fit] = sets;
  const scale = `Q = ${fit.q.toPrecision(4)} GeV`;
  const curves = (basis: PdfBasis, options: PdfBandOptions) =>
    replicaCurves ? sets.flatMap((set) => pdfReplicaRows(set, basis, options)) : [];
  const figures = PDF_VIEWS.map(({ basis, xScale }) =>
    pdfFigure(
      sets.flatMap((set) => pdfBandRows(set, basis, { xMin: xScale === 'log' ? 1e-5 : 1e-3 })),
      {
        replicas: curves(basis, { xMin: xScale === 'log' ? 1e-5 : 1e-3 }),
        id: `pdf-${basis}-${xScale}x`,
        title: `PDFs at ${scale}, ${basis} basis, ${xScale} x`,
        caption: `x·f at ${scale}: central value (mean of the replicas for a fit), 68 % confidence band (filled) and 1σ band (dashed).`,
        xScale,
        ratio: false,
      },
    ),
  );
  const compared = sets.filter((set) => set.kind !== 'truth' && set !== fit);
  if (compared.length > 0) {
    const base = compared[0];
    figures.push(
      pdfFigure(
        sets.flatMap((set) => pdfBandRows(set, 'flavour', { reference: base })),
        {
          replicas: curves('flavour', { reference: base }),
          id: 'pdf-ratio-flavour-logx',
          title: `Ratio to ${base.label} at ${scale}, flavour basis`,
          caption: `Each set’s central value and bands divided by ${base.label}’s central value.`,
          xScale: 'log',
          ratio: true,
        },
      ),
    );
  }
  const distances = distanceFigures(fit, compared);
  figures.push(...distances.figures);
  return {
    id: 'pdfs',
    title: `PDFs at ${scale}`,
    notes: [...sets.flatMap((set) => set.notes.map((note) => `${set.label}: ${note}`)), ...notes],
    tables: [],
    figures,
  };
}

/** The distances of each compare set with replicas from the fit, flavour basis. */
function distanceFigures(fit: PdfReplicas, compared: readonly PdfReplicas[]) {
  const notes: string[] = [];
  const rows = compared.flatMap((set) => {
    try {
      return pdfDistanceRows(set, fit, 'flavour');
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      notes.push(`no distances: ${error.message}`);
      return [];
    }
  });
  return { figures: rows.length === 0 ? [] : [distanceFigure(rows, fit.label)], notes };
}

function trainingSection(records: FitRecords): ReportSection | undefined {
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

function closureSection(records: FitRecords): ReportSection | undefined {
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

function dataTheoryRows(comparisons: readonly DatasetComparison[]): {
  rows: DataTheoryRow[];
  xTitle: string;
} {
  const titles = new Set<string>();
  const rows = comparisons.flatMap(({ dataset, set, predictions, replicas }) => {
    const { commonData } = dataset;
    const { variables, values } = commonData.kinematics;
    const first = Array.from({ length: commonData.ndata }, (_, n) => values[3 * n]);
    const varies = first.some((value) => value !== first[0]);
    titles.add(varies ? variables[0] : 'point');
    const errors = dataErrors(dataset.commonData);
    return Array.from(predictions, (theory, n) => {
      const spread =
        replicas.length < 2
          ? 0
          : Math.sqrt(
              replicas.reduce((sum, replica) => sum + (replica[n] - theory) ** 2, 0) /
                (replicas.length - 1),
            );
      const data = commonData.central[n];
      return {
        dataset: dataset.name,
        point: n,
        kinematic: varies ? first[n] : n,
        set,
        data,
        dataError: errors[n],
        theory,
        theoryError: spread,
        pull: (theory - data) / Math.sqrt(errors[n] ** 2 + spread ** 2),
      };
    });
  });
  return { rows, xTitle: [...titles].join(' / ') };
}

/** Each point's total uncertainty: the square root of the experimental covariance's diagonal. */
function dataErrors(commonData: DatasetComparison['dataset']['commonData']): Float64Array {
  const covariance = covarianceMatrix([commonData]);
  return Float64Array.from({ length: covariance.rows }, (_, n) =>
    Math.sqrt(covariance.data[n * covariance.columns + n]),
  );
}

async function comparePdf(path: string, fit: PdfReplicas): Promise<PdfReplicas> {
  if (await isFitFolder(path)) {
    const folder = resolve(path);
    const other = await fitPdfReplicas(folder, basename(folder));
    const same =
      other.xGrid.length === fit.xGrid.length && other.xGrid.every((x, i) => x === fit.xGrid[i]);
    if (!same) throw new RangeError(`${path}: its x grid is not ${fit.label}'s`);
    return other;
  }
  return lhapdfPdfReplicas(path, fit.xGrid, fit.q);
}

/**
 * The names figures and tables give the fit and each compare set: the folder's name (a fit's
 * name, an LHAPDF set's), or the path as given where two would have the same.
 */
function setLabels(fit: string, folder: string, compare: readonly string[]): Map<string, string> {
  const labels = new Map([[folder, fit]]);
  const taken = new Set([fit]);
  for (const path of compare) {
    const name = basename(resolve(path));
    const label = taken.has(name) ? path : name;
    taken.add(label);
    labels.set(path, label);
  }
  return labels;
}

/**
 * Builds the report of a fit folder: the fit summary (runcard, replicas passed and vetoed and
 * why, backend, timings, χ² per dataset for the fit and each compare set), the PDFs at Q0 with
 * their bands (flavour and evolution basis, log and linear x, ratios to the first compare set,
 * a closure test's truth), the training curves and stopping, the closure test's bias/variance,
 * and data against theory with pulls. Each section appears only where its inputs exist; what
 * cannot be shown is said in the report (`problems`) rather than thrown.
 *
 * With `predictions` (the default) the fit's replicas are rebuilt from `weights.h5`, which needs
 * an initialised TensorFlow.js backend (`initBackend` of `@partonfit/backend`).
 *
 * @throws RuncardError for a fit folder without a valid `runcard.yml`; InputFileError for a
 *   folder without `nnfit/`
 */
export async function buildReport(fitFolder: string, options: ReportOptions = {}): Promise<Report> {
  const folder = isAbsolute(fitFolder) ? fitFolder : resolve(fitFolder);
  const records = await readFitRecords(folder);
  const problems = [...records.problems];
  const sections: ReportSection[] = [];
  const compare = options.compare ?? [];
  const labels = setLabels(records.fit, folder, compare);

  const chi2Rows: Chi2Row[] = [];
  const comparisons: DatasetComparison[] = [];
  if (options.predictions ?? true) {
    const { datasets, problems: missing } = await runcardDatasets(records.runcard, folder);
    problems.push(...missing);
    for (const path of [folder, ...compare]) {
      try {
        const pdf = await predictingPdf(path);
        const found = await compareWithData(
          { ...pdf, label: labels.get(path) ?? pdf.label },
          datasets,
        );
        comparisons.push(...found);
        chi2Rows.push(...found.map((entry) => ({ ...entry.chi2 })));
      } catch (error) {
        problems.push(`χ² of ${path}: ${problemOf(error)}`);
      }
    }
  }
  try {
    const fit = await fitPdfReplicas(folder, records.fit);
    const sets = [fit];
    const notes: string[] = [];
    for (const path of compare) {
      try {
        const set = await comparePdf(path, fit);
        sets.push({ ...set, label: labels.get(path) ?? set.label });
      } catch (error) {
        if (error instanceof RangeError) notes.push(error.message);
        else notes.push(`${path}: ${problemOf(error)}`);
      }
    }
    const closure = records.runcard.closuretest;
    if (closure?.fakedata === true && closure.fakepdf !== undefined) {
      try {
        const paths = inputPaths(records.runcard, join(folder, 'runcard.yml'));
        const truth = await closureTruth(closure.fakepdf, paths, fit.q);
        sets.push(singlePdf(`truth (${closure.fakepdf})`, truth.xf, fit.xGrid, fit.q));
      } catch (error) {
        notes.push(`closure truth: ${problemOf(error)}`);
      }
    }
    sections.push(pdfSection(sets, notes, options.replicaCurves ?? false));
  } catch (error) {
    problems.push(`PDFs: ${problemOf(error)}`);
  }

  const training = trainingSection(records);
  if (training !== undefined) sections.push(training);
  const closure = closureSection(records);
  if (closure !== undefined) sections.push(closure);
  if (comparisons.length > 0) {
    const { rows, xTitle } = dataTheoryRows(comparisons);
    sections.push({
      id: 'data-theory',
      title: 'Data and theory',
      notes: [
        'The data are each dataset’s commondata after cuts, as partonfit predict reads them (for an embedded closure dataset its level-0 data, not the fitted pseudodata).',
      ],
      tables: [],
      figures: [dataTheoryFigure(rows, xTitle), pullFigure(rows, xTitle)],
    });
  }
  sections.unshift(summarySection({ ...records, problems }, chi2Rows));
  return { title: `partonfit report: ${records.fit}`, fit: records.fit, sections, problems };
}
