import type { HyperMetrics } from '../loss/hyper-metrics.js';
import type { FoldOutcome, TrialLoss } from '../loss/trial-loss.js';
import type { SpacePoint } from '../sampler/index.js';

/** Everything a finished trial records. */
export interface TrialRecord {
  /** hyperopt's trial id: the trial's number in the scan, from 0. */
  readonly tid: number;
  /** The sampled values, by label. */
  readonly point: SpacePoint;
  /** Every label of the space (inactive ones are written empty, as hyperopt writes them). */
  readonly labels: readonly string[];
  /** The evaluated space: the trial's whole `parameters` (`misc.space_vals`). */
  readonly spaceValues: unknown;
  /** The folds it trained, in partition order (as n3fit: none after the one that ended it). */
  readonly folds: readonly FoldOutcome[];
  /** The loss made from them, or why there is none. */
  readonly outcome: TrialLoss | { readonly failure: string };
  /** When its batch started and when it finished. */
  readonly bookTime: Date;
  readonly refreshTime: Date;
  /** Its batch, and the wall time of the batch's training and measurement. */
  readonly batch: number;
  readonly seconds: number;
}

/** The result of a trial, as `tries.json` records it. */
export interface TrialResult {
  readonly status: 'ok' | 'fail';
  readonly loss: number;
  readonly validation_loss: number;
  readonly experimental_loss: number;
  readonly kfold_meta: {
    readonly validation_losses: readonly (readonly number[])[];
    readonly experimental_losses: readonly (readonly number[])[];
    readonly hyper_losses: readonly (readonly number[])[];
    readonly hyper_losses_chi2: readonly number[];
    readonly hyper_losses_phi2: readonly number[];
    readonly hyper_losses_logp: readonly number[];
    readonly trvl_losses_chi2: readonly number[];
    readonly trvl_losses_chi2exp: readonly number[];
    readonly trvl_losses_phi2: readonly number[];
    readonly trvl_losses_logp: readonly number[];
    readonly penalties: Readonly<Record<string, readonly (readonly number[])[]>>;
    readonly fold_losses: readonly number[];
    readonly threshold_fold: number | null;
  };
  readonly partonfit: {
    readonly batch: number;
    readonly seconds: number;
    readonly failure?: string;
  };
}

/** A trial document of `tries.json` (hyperopt's layout). */
export interface TrialDocument {
  readonly state: number;
  readonly tid: number;
  readonly spec: null;
  readonly result: TrialResult;
  readonly misc: {
    readonly tid: number;
    readonly cmd: readonly string[];
    readonly workdir: null;
    readonly idxs: Readonly<Record<string, readonly number[]>>;
    readonly vals: Readonly<Record<string, readonly number[]>>;
    readonly space_vals: unknown;
  };
  readonly exp_key: null;
  readonly owner: null;
  readonly version: number;
  readonly book_time: string;
  readonly refresh_time: string;
}

/** hyperopt's time format in `tries.json` (`str(datetime)`, UTC). */
function pythonTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '000');
}

const perFold = (folds: readonly FoldOutcome[], metric: (fold: FoldOutcome) => number) =>
  folds.map(metric);
const heldOut = (key: keyof HyperMetrics) => (fold: FoldOutcome) => fold.heldOut[key];
const fitted = (key: keyof HyperMetrics) => (fold: FoldOutcome) => fold.fitted[key];

function mean(values: readonly (readonly number[])[]): number {
  const flat = values.flat();
  return flat.reduce((sum, value) => sum + value, 0) / flat.length;
}

/**
 * A trial as a hyperopt trial document, the layout n3fit 4.1.5's `FileTrials` writes to
 * `tries.json`: `state` 2 (done), `tid`, `result` with `status`, `loss`, `validation_loss`,
 * `experimental_loss` and n3fit's `kfold_meta` (per fold: `validation_losses`,
 * `experimental_losses` and `hyper_losses` per replica, `hyper_losses_chi2`/`_phi2`/`_logp` of the
 * held-out partition, `trvl_losses_chi2`/`_chi2exp`/`_phi2`/`_logp` of the fitted data,
 * `penalties` per replica), and `misc` with `idxs`, `vals` and `space_vals`. partonfit adds
 * `kfold_meta.fold_losses` (each fold's loss as it counts), `kfold_meta.threshold_fold`, and a
 * `partonfit` entry (batch, seconds, the reason of a failure). Non-finite numbers are `null`.
 */
export function trialDocument(record: TrialRecord): TrialDocument {
  const { folds, outcome, tid } = record;
  const failure = 'failure' in outcome ? outcome.failure : undefined;
  const penaltyNames = Object.keys(folds[0]?.penalties ?? {});
  // n3fit's averages count the folds up to the one that passed the threshold
  const counted =
    'foldLosses' in outcome && outcome.foldLosses.length > 0
      ? folds.slice(0, outcome.foldLosses.length)
      : folds;
  const result: TrialResult = {
    status: failure === undefined && 'status' in outcome ? outcome.status : 'fail',
    loss: 'loss' in outcome ? outcome.loss : Number.NaN,
    validation_loss: mean(counted.map((fold) => fold.validationLosses)),
    experimental_loss: mean(counted.map((fold) => fold.experimentalLosses)),
    kfold_meta: {
      validation_losses: folds.map((fold) => fold.validationLosses),
      experimental_losses: folds.map((fold) => fold.experimentalLosses),
      hyper_losses: folds.map((fold) => fold.experimentalLosses),
      hyper_losses_chi2: perFold(folds, heldOut('chi2')),
      hyper_losses_phi2: perFold(folds, heldOut('phi')),
      hyper_losses_logp: perFold(folds, heldOut('logp')),
      trvl_losses_chi2: perFold(folds, fitted('chi2')),
      trvl_losses_chi2exp: perFold(folds, fitted('chi2exp')),
      trvl_losses_phi2: perFold(folds, fitted('phi')),
      trvl_losses_logp: perFold(folds, fitted('logp')),
      penalties: Object.fromEntries(
        penaltyNames.map((name) => [name, folds.map((fold) => fold.penalties[name])]),
      ),
      fold_losses: 'foldLosses' in outcome ? outcome.foldLosses : [],
      threshold_fold: 'thresholdFold' in outcome ? (outcome.thresholdFold ?? null) : null,
    },
    partonfit: {
      batch: record.batch,
      seconds: record.seconds,
      ...(failure === undefined ? {} : { failure }),
    },
  };
  const active = (label: string) => label in record.point;
  return {
    state: 2,
    tid,
    spec: null,
    result,
    misc: {
      tid,
      cmd: ['domain_attachment', 'FMinIter_Domain'],
      workdir: null,
      idxs: Object.fromEntries(record.labels.map((label) => [label, active(label) ? [tid] : []])),
      vals: Object.fromEntries(
        record.labels.map((label) => [label, active(label) ? [record.point[label]] : []]),
      ),
      space_vals: record.spaceValues,
    },
    exp_key: null,
    owner: null,
    version: 0,
    book_time: pythonTime(record.bookTime),
    refresh_time: pythonTime(record.refreshTime),
  };
}

/** Trial documents as the text of a `tries.json` (strict JSON: non-finite numbers as `null`). */
export function triesJson(documents: readonly unknown[]): string {
  return `${JSON.stringify(documents, (_, value: unknown) =>
    typeof value === 'number' && !Number.isFinite(value) ? null : value,
  )}\n`;
}

/** A finished trial as the sampler sees it: its point, its loss (NaN when it has none), its status. */
export interface FinishedTrial {
  readonly tid: number;
  readonly point: SpacePoint;
  readonly loss: number;
  readonly status: string;
}

/** The sampler's view of trial documents written by {@link trialDocument}. */
export function finishedTrials(documents: readonly unknown[]): FinishedTrial[] {
  return documents.flatMap((document) => {
    const trial = document as {
      tid?: unknown;
      state?: unknown;
      result?: { status?: unknown; loss?: unknown };
      misc?: { vals?: Record<string, unknown[]> };
    };
    if (typeof trial.tid !== 'number' || trial.state !== 2) return [];
    const point: Record<string, number> = {};
    for (const [label, values] of Object.entries(trial.misc?.vals ?? {})) {
      if (typeof values[0] === 'number') point[label] = values[0];
    }
    const status = typeof trial.result?.status === 'string' ? trial.result.status : 'fail';
    const loss = typeof trial.result?.loss === 'number' ? trial.result.loss : Number.NaN;
    return [{ tid: trial.tid, point, loss, status }];
  });
}
