import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  dataFolder,
  lhapdfFolder,
  loadRuncard,
  parseDatasetInput,
  type Matrix,
} from '@partonfit/core';
import { BACKEND_REQUESTS, initBackend, type BackendRequest } from '@partonfit/backend';
import {
  chi2,
  covarianceMatrix,
  createObservable,
  DEFAULT_DIS_CUTS,
  inputPaths,
  loadBundle,
  loadFkTable,
  lhapdfMemberPredictions,
  resolveDataset,
  type InputPaths,
  type Observable,
} from '@partonfit/fktables';
import { loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import {
  fitBackendRequest,
  isFitFolder,
  loadFitReplicas,
  predictFitReplicas,
} from '@partonfit/trainer';
import { defineCommand, UsageError } from './define-command.js';
import { backendOption } from './option-values.js';

/** What is predicted, and the data to compare with when there are any. */
interface Target {
  readonly label: string;
  readonly observable: Observable;
  readonly data?: { readonly central: Float64Array; readonly covariance: Matrix };
}

const USAGE = `partonfit predict --pdf <LHAPDF set folder or name | fit folder> [--member N] (--fktable <file> | --bundle <file.npz> | --dataset <name or {dataset: …}> [--runcard <file>]) [--backend ${BACKEND_REQUESTS.join('|')}] [--json]`;

/** The predictions of a PDF for an observable, at the FK tables' Q0. */
interface Evaluation {
  readonly q0: number;
  /** `(data)`: the member's, or for a fit's member 0 the mean over its replicas. */
  readonly predictions: Float64Array;
  /** A fit's members evaluated (all for member 0), each `(data)`. */
  readonly members?: readonly { readonly member: number; readonly predictions: Float64Array }[];
}

/** A PDF to predict with: a member of an LHAPDF set, or of a fit's replicas. */
interface PdfSource {
  /** How the output names it, e.g. `NNPDF40_nnlo_as_01180 member 0`. */
  readonly label: string;
  /** The set's or fit's name. */
  readonly name: string;
  /** For a fit: where its replicas come from. */
  readonly replicas?: { readonly source: string; readonly members: readonly number[] };
  readonly evaluate: (observable: Observable) => Promise<Evaluation>;
}

async function lhapdfSource(folder: string, member: number): Promise<PdfSource> {
  const set = await loadLhapdfSet(folder);
  const grid = await loadLhapdfMember(set, member);
  return {
    label: `${set.name} member ${member}`,
    name: set.name,
    evaluate: (observable) => Promise.resolve(lhapdfMemberPredictions(grid, observable)),
  };
}

async function fitSource(
  folder: string,
  member: number,
  backend: BackendRequest | undefined,
): Promise<PdfSource> {
  await initBackend(backend ?? (await fitBackendRequest(folder)));
  const set = await loadFitReplicas(folder);
  const members = set.members.map((entry) => entry.member);
  return {
    label: `fit ${set.fit} (${set.source}, ${members.length} replica${members.length === 1 ? '' : 's'}) member ${member}${member === 0 ? ' (mean of the replicas)' : ''}`,
    name: set.fit,
    replicas: { source: set.source, members },
    evaluate: async (observable) => ({
      q0: set.q0,
      ...(await predictFitReplicas(set, observable, member)),
    }),
  };
}

/**
 * The `--pdf` folder: the path as given, or for a bare name that is no path here, the LHAPDF set
 * of that name in the data folder (where `partonfit get pdf` puts it).
 */
function pdfFolder(value: string): string {
  if (existsSync(value) || /[/\\]/.test(value)) return value;
  return join(lhapdfFolder(dataFolder()), value);
}

/** The data paths for `--dataset`: a runcard's, or the current folder with none set. */
async function datasetPaths(runcardFile: string | undefined) {
  if (runcardFile === undefined) {
    return {
      paths: {
        runcardFile: '(command line)',
        runcardFolder: resolve('.'),
        theories: undefined,
        commondata: undefined,
        lhapdf: undefined,
        theoryId: undefined,
      } satisfies InputPaths,
      cuts: DEFAULT_DIS_CUTS,
    };
  }
  const { runcard } = await loadRuncard(runcardFile);
  return {
    paths: inputPaths(runcard, runcardFile),
    cuts: { q2min: runcard.datacuts.q2min, w2min: runcard.datacuts.w2min },
  };
}

async function targetOf(values: {
  fktable?: string | undefined;
  bundle?: string | undefined;
  dataset?: string | undefined;
  runcard?: string | undefined;
}): Promise<Target> {
  if (values.fktable !== undefined) {
    const table = await loadFkTable(values.fktable);
    return {
      label: `FK table ${values.fktable}`,
      observable: createObservable(table.name, 'NULL', [[table]]),
    };
  }
  if (values.bundle !== undefined) {
    const bundle = await loadBundle(values.bundle);
    return {
      label: `bundle ${values.bundle}`,
      observable: createObservable(bundle.name, 'NULL', [[bundle.fkTable]]),
      data: { central: bundle.data, covariance: bundle.covariance },
    };
  }
  const input = parseDatasetInput(values.dataset ?? '', { source: '--dataset' });
  const { paths, cuts } = await datasetPaths(values.runcard);
  const dataset = await resolveDataset(input, paths, cuts);
  const { commonData } = dataset;
  return {
    label: `dataset ${dataset.name}${commonData.variant === undefined ? '' : ` (variant ${commonData.variant})`}`,
    observable: dataset.observable,
    ...(commonData.kind === 'data'
      ? { data: { central: commonData.central, covariance: covarianceMatrix([commonData]) } }
      : {}),
  };
}

/** The `--member` value: 0 (the default: the central member, or a fit's mean) or a member. */
function memberOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const member = Number(text);
  if (text.trim() === '' || !Number.isInteger(member) || member < 0) {
    throw new UsageError(`--member: expected a member number ≥ 0, got '${text}'`);
  }
  return member;
}

function formatTable(predictions: Float64Array, central: Float64Array | undefined): string {
  const header =
    central === undefined ? '   point    prediction' : '   point    prediction          data';
  const rows = Array.from(predictions, (value, n) => {
    const cells = [String(n).padStart(8), value.toExponential(6).padStart(14)];
    if (central !== undefined) cells.push(central[n].toExponential(6).padStart(14));
    return cells.join('');
  });
  return [header, ...rows].join('\n');
}

/**
 * `partonfit predict`: predictions of a PDF for an FK table, an npz bundle or a runcard dataset,
 * and their χ² against the data (experimental covariance) where there are data. The PDF is a
 * member of an LHAPDF set (interpolated at Q0; a bare set name is looked for in the data
 * folder), or of a fit folder's replicas (`postfit/` if
 * present, else `nnfit/`) rebuilt from their `weights.h5` and evaluated exactly at the tables'
 * x-grids, member 0 being the mean of the replicas' predictions (with `--json`, each replica's
 * predictions too). A fit is evaluated on `--backend`, by default the one that trained it.
 */
export const predictCommand = defineCommand({
  name: 'predict',
  summary: 'predictions and χ² of an LHAPDF set or a fit against an FK table, bundle or dataset',
  usage: USAGE,
  options: {
    pdf: { type: 'string' },
    member: { type: 'string' },
    fktable: { type: 'string' },
    bundle: { type: 'string' },
    dataset: { type: 'string' },
    runcard: { type: 'string' },
    backend: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
  run: async ({ values }, terminal) => {
    const sources = [values.fktable, values.bundle, values.dataset].filter(
      (value) => value !== undefined,
    );
    if (values.pdf === undefined) throw new UsageError('missing --pdf');
    if (sources.length !== 1) {
      throw new UsageError('give exactly one of --fktable, --bundle, --dataset');
    }
    const backend = backendOption(values.backend);
    const member = memberOf(values.member);
    const pdfPath = pdfFolder(values.pdf);
    const pdf = (await isFitFolder(pdfPath))
      ? await fitSource(pdfPath, member, backend)
      : await lhapdfSource(pdfPath, member);
    const target = await targetOf(values);
    const { q0, predictions, members } = await pdf.evaluate(target.observable);
    const ndata = predictions.length;
    const chi2Value =
      target.data === undefined
        ? undefined
        : chi2(target.data.central, predictions, target.data.covariance);
    if (values.json) {
      terminal.out(
        `${JSON.stringify({
          pdf: pdf.name,
          member,
          ...(pdf.replicas === undefined ? {} : { replicas: pdf.replicas }),
          target: target.label,
          q0,
          ndata,
          predictions: Array.from(predictions),
          ...(members === undefined
            ? {}
            : {
                replicaPredictions: members.map((entry) => ({
                  member: entry.member,
                  predictions: Array.from(entry.predictions),
                })),
              }),
          ...(target.data === undefined ? {} : { data: Array.from(target.data.central) }),
          ...(chi2Value === undefined ? {} : { chi2: chi2Value, chi2PerPoint: chi2Value / ndata }),
        })}\n`,
      );
      return;
    }
    const lines = [
      `${target.label}: ${ndata} point${ndata === 1 ? '' : 's'}, ${pdf.label} at Q0 = ${q0} GeV`,
      formatTable(predictions, target.data?.central),
    ];
    if (chi2Value !== undefined) {
      lines.push(
        `χ² = ${chi2Value.toFixed(3)} for ${ndata} points, χ²/n = ${(chi2Value / ndata).toFixed(4)}`,
      );
    }
    terminal.out(`${lines.join('\n')}\n`);
  },
});
