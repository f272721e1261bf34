import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  findTriesFile,
  InputFileError,
  isMapping,
  loadRuncard,
  parseTries,
  PartonfitError,
  TRIAL_STATES,
  TRIES_FILE_LOCATIONS,
  type Runcard,
} from '@partonfit/core';
import { trialSettings, type TrialSettings } from './trial-settings.js';

/** A scan's `kfold` settings, as its runcard gives them. */
export type ScanKfold = NonNullable<Runcard['kfold']>;

/** Where a trial's per-fold losses come from. */
export type FoldLossSource = 'fold_losses' | 'hyper_losses_chi2' | 'hyper_losses_phi2';

/** A finished trial of a scan, as the scan report reads it from `tries.json`. */
export interface ScanTrial {
  /** hyperopt's trial id. */
  readonly tid: number;
  /** `ok` or `fail` (hyperopt's `result.status`). */
  readonly status: string;
  /** The loss hyperopt minimised; NaN where the file has none (`null`, a failed training). */
  readonly loss: number;
  /**
   * The loss of each fold, in partition order: partonfit's `kfold_meta.fold_losses` (the folds
   * that count; after a fold above the threshold there are none), else upstream n3fit's held-out
   * `hyper_losses_chi2` (or `_phi2` for a φ² scan), each fold's replicas averaged.
   */
  readonly foldLosses: readonly number[];
  /** Where {@link foldLosses} come from; undefined when the trial has none of these. */
  readonly foldSource: FoldLossSource | undefined;
  /** The fold above the k-fold threshold (`kfold_meta.threshold_fold`), 0-based. */
  readonly thresholdFold: number | undefined;
  /** Why partonfit could not make a loss (`result.partonfit.failure`). */
  readonly failure: string | undefined;
  /** The trial's hyperparameters (from `misc.space_vals`). */
  readonly settings: TrialSettings;
  /** partonfit's batch of the trial and that batch's wall time in seconds. */
  readonly batch: number | undefined;
  readonly seconds: number | undefined;
}

/** What the scan report reads from a scan folder. */
export interface ScanRecords {
  /** The scan's name: its folder's name. */
  readonly name: string;
  readonly folder: string;
  /** The `tries.json` read. */
  readonly triesFile: string;
  /** How many trials the file lists, finished or not. */
  readonly listed: number;
  /** The finished trials (hyperopt's state 2), by trial id. */
  readonly trials: readonly ScanTrial[];
  /** The number of folds: the runcard's partitions, else the most any trial has. */
  readonly folds: number;
  /** The scan's `kfold` settings, when its runcard could be read. */
  readonly kfold: ScanKfold | undefined;
  /** partonfit's `scan.json` beside `tries.json` (sampler, trials per model, …), if any. */
  readonly settings: Readonly<Record<string, unknown>> | undefined;
  /** What the report cannot show, and why. */
  readonly problems: readonly string[];
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** Whether `folder` holds a fit's replicas: an `nnfit/replica_<n>/` with an `.exportgrid`. */
async function hasFitReplicas(folder: string): Promise<boolean> {
  const nnfit = join(folder, 'nnfit');
  const replicas = await readdir(nnfit).catch((): string[] => []);
  for (const replica of replicas.filter((name) => /^replica_\d+$/.test(name))) {
    const files = await readdir(join(nnfit, replica)).catch((): string[] => []);
    if (files.some((file) => file.endsWith('.exportgrid'))) return true;
  }
  return false;
}

/**
 * Whether `path` is a hyperparameter scan folder: a folder with a `tries.json` (its own,
 * partonfit's `hyperopt/tries.json` or n3fit's `nnfit/replica_1/tries.json`) and no fitted
 * replicas (no `nnfit/replica_<n>/*.exportgrid`).
 */
export async function holdsScanTrials(path: string): Promise<boolean> {
  if (!(await isFolder(path))) return false;
  return (await findTriesFile(path)) !== undefined && !(await hasFitReplicas(path));
}

/** A number as `tries.json` writes it (numpy numbers as strings); NaN for anything else. */
function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/** A per-fold entry: a number, or a list over replicas (averaged). */
function foldValue(value: unknown): number {
  if (!Array.isArray(value)) return numberOf(value);
  const values = value.map(numberOf);
  return values.reduce((sum, each) => sum + each, 0) / values.length;
}

function foldLossesOf(
  meta: Readonly<Record<string, unknown>>,
  lossType: string,
): { losses: number[]; source: FoldLossSource | undefined } {
  if (Array.isArray(meta.fold_losses)) {
    return { losses: meta.fold_losses.map(numberOf), source: 'fold_losses' };
  }
  const fallbacks: FoldLossSource[] =
    lossType === 'phi2'
      ? ['hyper_losses_phi2', 'hyper_losses_chi2']
      : ['hyper_losses_chi2', 'hyper_losses_phi2'];
  for (const key of fallbacks) {
    const losses = meta[key];
    if (Array.isArray(losses)) return { losses: losses.map(foldValue), source: key };
  }
  return { losses: [], source: undefined };
}

/** Python's bare non-finite numbers outside strings (the strings matched to be kept). */
const PYTHON_NON_FINITE = /"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g;

/** The trial documents of a text {@link parseTries} accepted, non-finite numbers as `null`. */
function documentsOf(text: string): unknown[] {
  return JSON.parse(
    text.replace(PYTHON_NON_FINITE, (token) => (token.startsWith('"') ? token : 'null')),
  ) as unknown[];
}

function scanTrial(document: unknown, lossType: string): ScanTrial {
  const entry = isMapping(document) ? document : {};
  const result = isMapping(entry.result) ? entry.result : {};
  const meta = isMapping(result.kfold_meta) ? result.kfold_meta : {};
  const partonfit = isMapping(result.partonfit) ? result.partonfit : {};
  const misc = isMapping(entry.misc) ? entry.misc : {};
  const { losses, source } = foldLossesOf(meta, lossType);
  const threshold = numberOf(meta.threshold_fold);
  const batch = numberOf(partonfit.batch);
  const seconds = numberOf(partonfit.seconds);
  return {
    tid: numberOf(entry.tid),
    status: typeof result.status === 'string' ? result.status : 'unknown',
    loss: numberOf(result.loss),
    foldLosses: losses,
    foldSource: source,
    thresholdFold: Number.isInteger(threshold) ? threshold : undefined,
    failure: typeof partonfit.failure === 'string' ? partonfit.failure : undefined,
    settings: trialSettings(isMapping(misc.space_vals) ? misc.space_vals : {}),
    batch: Number.isInteger(batch) ? batch : undefined,
    seconds: Number.isFinite(seconds) ? seconds : undefined,
  };
}

/** The scan's runcard: partonfit's `runcard.yml`, or n3fit's `filter.yml` in its output. */
async function scanKfold(folder: string, problems: string[]): Promise<ScanKfold | undefined> {
  for (const name of ['runcard.yml', 'filter.yml']) {
    const file = join(folder, name);
    if (
      !(await stat(file).then(
        (info) => info.isFile(),
        () => false,
      ))
    )
      continue;
    try {
      const { runcard } = await loadRuncard(file);
      if (runcard.kfold === undefined) problems.push(`${file}: no kfold section`);
      return runcard.kfold;
    } catch (error) {
      if (!PartonfitError.isInstance(error)) throw error;
      problems.push(`the scan's kfold settings: ${error.message}`);
      return undefined;
    }
  }
  problems.push(`no runcard.yml in ${folder}: the scan's kfold settings are not shown`);
  return undefined;
}

async function scanJson(
  file: string,
  problems: string[],
): Promise<Readonly<Record<string, unknown>> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const settings: unknown = JSON.parse(text);
    if (isMapping(settings)) return settings;
    problems.push(`${file}: expected the scan's settings (a mapping)`);
  } catch (cause) {
    problems.push(`${file}: not JSON (${cause instanceof Error ? cause.message : String(cause)})`);
  }
  return undefined;
}

/**
 * Reads a scan folder: its `tries.json` (partonfit's or upstream n3fit's, through core's
 * `parseTries`), the `kfold` section of its `runcard.yml` and partonfit's `scan.json`.
 *
 * @throws InputFileError naming the folder when it has no `tries.json`; naming the file when it
 *   is not JSON or not a list of trials, or holds no finished trial
 */
export async function readScanRecords(scanFolder: string): Promise<ScanRecords> {
  const folder = resolve(scanFolder);
  const triesFile = await findTriesFile(folder);
  if (triesFile === undefined) {
    throw new InputFileError({
      file: folder,
      problem: `no trials: expected a scan folder holding ${TRIES_FILE_LOCATIONS.join(', ')}`,
    });
  }
  let text: string;
  try {
    text = await readFile(triesFile, 'utf8');
  } catch (cause) {
    throw new InputFileError({
      file: triesFile,
      problem: `cannot read the scan's trials (${String(cause)})`,
    });
  }
  const tries = parseTries(text, triesFile);
  const problems: string[] = [];
  const kfold = await scanKfold(folder, problems);
  const settings = await scanJson(join(dirname(triesFile), 'scan.json'), problems);
  const documents = documentsOf(text);
  const trials = tries.trials
    .flatMap((trial, index) =>
      trial.state === TRIAL_STATES.done
        ? [scanTrial(documents[index], kfold?.loss_type ?? 'chi2')]
        : [],
    )
    .sort((a, b) => a.tid - b.tid);
  if (trials.length === 0) {
    throw new InputFileError({
      file: triesFile,
      problem: `no finished trial among its ${tries.trials.length}: nothing to report yet`,
    });
  }
  const folds = kfold?.partitions.length ?? Math.max(...trials.map((t) => t.foldLosses.length));
  return {
    name: basename(folder),
    folder,
    triesFile,
    listed: tries.trials.length,
    trials,
    folds,
    kfold,
    settings,
    problems,
  };
}
