import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import {
  canonicalJson,
  columnsAsParameters,
  DEFAULT_TRIALS_PER_MODEL,
  InputFileError,
  loadRuncard,
  RuncardError,
  runcardDigest,
  scanRequirements,
  trialColumns,
  type HyperscanTrial,
} from '@partonfit/core';
import { prepareFitInputs } from '@partonfit/fktables';
import { ensureWritableFolder, writeFileAtomic } from '@partonfit/io';
import type { TrainingProgress } from '@partonfit/trainer';
import {
  foldEndsTrial,
  foldsTrained,
  trialOutcome,
  type KfoldSettings,
} from '../loss/trial-loss.js';
import { evaluateSpace, spaceLabels } from '../sampler/index.js';
import { scanSpace } from '../scan-space/scan-space.js';
import { scanInputLayout, slotBatch } from '../slots/slot-batch.js';
import { finishedTrials, triesJson, trialDocument } from '../tries/trial-document.js';
import { foldData } from './fold-data.js';
import {
  batchFile,
  claimBatch,
  finishedDocuments,
  releaseUnfinishedBatches,
  releaseBatch,
  scanFolder,
  writeTries,
} from './scan-folder.js';
import { SCAN_SEED, suggestBatch, type SamplerName } from './suggest-batch.js';
import { trainBatch, type TrainBatchOptions, type TrainedFold } from './train-batch.js';

/** What `partonfit hyperopt` asks for. */
export interface ScanRequest {
  /** The scan runcard: a fit runcard with `hyperscan_config` and `kfold`. */
  readonly runcardFile: string;
  /** The number of trials of the scan (n3fit's `--hyperopt N`). */
  readonly trials: number;
  /**
   * Trials trained together in one model; the first batch is drawn at random. Default: the
   * folder's own for a resumed or joined scan, {@link DEFAULT_TRIALS_PER_MODEL} for a new one.
   */
  readonly trialsPerModel?: number;
  /** Replicas of every trial on every fold (default 1, as n3fit's scans). */
  readonly replicas?: number;
  /** The folder that receives the scan folder `<output>/<runcard name>/`. */
  readonly outputFolder: string;
  /** `tpe` (default) or `random`. */
  readonly sampler?: SamplerName;
  /** Continue a scan in the folder: finished batches are kept, the others (re)trained. */
  readonly resume?: boolean;
  /**
   * Join a scan other processes run in the same folder (tasks of a SLURM array): batches are
   * claimed, so that each is trained once.
   */
  readonly join?: boolean;
  /**
   * Train each trial's folds one at a time, each as its own model of `replicas` rows, skipping
   * a trial's remaining folds once one ends the trial (`foldEndsTrial`): n3fit's way, for
   * comparison.
   */
  readonly oneFoldPerModel?: boolean;
  /** Who trains (written into batch claims), e.g. `host:pid` or a SLURM task. */
  readonly owner?: string;
  /** Lines describing the set-up and each batch. */
  readonly report?: (message: string) => void;
  /** Called at every read-back of a batch's training, with the scan's number of batches. */
  readonly onProgress?: (batch: number, batches: number, progress: TrainingProgress) => void;
  /** Stops the scan (after the step in progress; the batch in training is retrained on resume). */
  readonly signal?: AbortSignal;
}

/** What a scan did. */
export interface ScanSummary {
  /** The scan folder. */
  readonly folder: string;
  /** Its `tries.json`. */
  readonly triesFile: string;
  /** Finished trials in the folder. */
  readonly trials: number;
  /** Batches this process trained. */
  readonly batchesTrained: number;
  /** The trial with the lowest loss among the `ok` ones, if any. */
  readonly best:
    { readonly tid: number; readonly loss: number; readonly parameters: unknown } | undefined;
  /** Wall time: preparing the inputs, and training and measuring the batches. */
  readonly seconds: { readonly setup: number; readonly training: number };
}

/** The settings a folder's scan was started with (its `scan.json`), if it holds one. */
async function recordedSettings(
  settingsFile: string,
): Promise<Record<string, unknown> | undefined> {
  if (!existsSync(settingsFile)) return undefined;
  try {
    return JSON.parse(await readFile(settingsFile, 'utf8')) as Record<string, unknown>;
  } catch (cause) {
    throw new InputFileError({
      file: settingsFile,
      problem: `cannot read the scan's settings (${String(cause)}); choose another --output`,
    });
  }
}

/** The settings a resumed or joined scan must share with the folder's. */
function scanSettings(request: ScanRequest, digest: string, trialsPerModel: number) {
  return {
    runcardSha256: digest,
    trials_per_model: trialsPerModel,
    replicas: request.replicas ?? 1,
    sampler: request.sampler ?? 'tpe',
    seed: SCAN_SEED,
    one_fold_per_model: request.oneFoldPerModel ?? false,
  };
}

/** A trial's settings as a `parameters_per_replica` entry, from its evaluated space. */
function trialEntry(spaceValues: unknown): Record<string, unknown> {
  const trial: HyperscanTrial = {
    tid: 0,
    state: 2,
    status: 'ok',
    loss: Number.NaN,
    parameters: spaceValues as Record<string, unknown>,
    bookTime: undefined,
    refreshTime: undefined,
  };
  return columnsAsParameters(trialColumns(trial));
}

/** Refuses a folder of another scan, or of this one without `resume`/`join`. */
function checkScanFolder(
  settingsFile: string,
  existing: Record<string, unknown> | undefined,
  settings: ReturnType<typeof scanSettings>,
  request: ScanRequest,
): void {
  if (existing === undefined) return;
  // a resumed scan may ask for more trials: the batches before are the same
  const comparable = Object.fromEntries(
    Object.entries(existing).filter(([key]) => key !== 'trials'),
  );
  if (canonicalJson(comparable) !== canonicalJson(settings)) {
    throw new InputFileError({
      file: settingsFile,
      problem: `the folder holds a scan of another runcard or other settings (${canonicalJson(comparable)}); choose another --output`,
    });
  }
  if (request.resume !== true && request.join !== true) {
    throw new InputFileError({
      file: settingsFile,
      problem:
        'the folder already holds this scan: pass --resume to continue it, or choose another --output',
    });
  }
}

/**
 * Refuses to extend a scan through a batch that finished with fewer trials than it now needs:
 * trial ids are batch·B + t, so such a batch's missing trials would never be trained.
 */
async function refuseShortBatch(file: string, needed: number): Promise<void> {
  let trials: number;
  try {
    trials = (JSON.parse(await readFile(file, 'utf8')) as unknown[]).length;
  } catch (cause) {
    throw new InputFileError({
      file,
      problem: `cannot read the batch's trials (${String(cause)})`,
    });
  }
  if (trials >= needed) return;
  throw new InputFileError({
    file,
    problem: `this batch finished with ${trials} trial(s) and the scan now asks for ${needed} in it; trial ids are batch × trials_per_model + t, so the rest would never be trained: extend a scan only from a whole last batch (a multiple of --trials-per-model), or start a new scan with another --output`,
  });
}

/**
 * Runs a hyperparameter scan as n3fit 4.1.5's `--hyperopt` defines it — k-fold partitions, its
 * losses, statistics, penalties and threshold, hyperopt's TPE — with each batch of trials trained
 * as one multi-replica model whose rows are every (trial, fold, replica). Batch b's trials are
 * `tid` b·B … b·B + B − 1; their documents go to `hyperopt/batches/` when the batch ends and
 * `hyperopt/tries.json` is rewritten with every finished trial (atomically). With `resume` the
 * finished batches are kept and the next suggested exactly as an uninterrupted scan would.
 *
 * @throws RuncardError for a runcard without `kfold` or with an empty search space;
 *   InputFileError for a folder of another scan, or of this one without `resume`
 */
export async function runScan(request: ScanRequest): Promise<ScanSummary> {
  const { runcardFile, report } = request;
  const { runcard, warnings } = await loadRuncard(runcardFile);
  for (const warning of warnings) {
    report?.(
      `warning: ${runcardFile}:${warning.line ?? '?'}: ${warning.keyPath}: ${warning.problem}`,
    );
  }
  const replicas = request.replicas ?? 1;
  const issues = scanRequirements(runcard, replicas);
  if (issues.length > 0 || runcard.kfold === undefined) {
    throw new RuncardError({ file: runcardFile, issues });
  }
  const settings: KfoldSettings = runcard.kfold;
  const space = scanSpace(runcard, runcardFile);
  const labels = spaceLabels(space);
  const folder = scanFolder(request.outputFolder, basename(runcardFile, extname(runcardFile)));
  const text = await readFile(runcardFile, 'utf8');
  const continuing = request.resume === true || request.join === true;
  const recorded = await recordedSettings(folder.settings);
  const recordedPerModel = recorded?.trials_per_model;
  const trialsPerModel =
    request.trialsPerModel ??
    (continuing && typeof recordedPerModel === 'number' ? recordedPerModel : undefined) ??
    DEFAULT_TRIALS_PER_MODEL;
  const scan = scanSettings(request, runcardDigest(runcard), trialsPerModel);
  await ensureWritableFolder(folder.folder);
  checkScanFolder(folder.settings, recorded, scan, request);
  await mkdir(folder.batches, { recursive: true });
  await writeFileAtomic(folder.runcard, text);
  await writeFileAtomic(
    folder.settings,
    `${JSON.stringify({ ...scan, trials: request.trials }, null, 1)}\n`,
  );
  const owner = request.owner ?? `pid ${process.pid}`;
  // a resumed scan retrains every batch a killed run left; a requeued task of a joined scan, the
  // batches its own killed run left
  const released = continuing
    ? await releaseUnfinishedBatches(folder, request.resume === true ? undefined : owner)
    : [];
  if (released.length > 0) {
    report?.(`retraining batch(es) ${released.map((b) => b + 1).join(', ')}, left unfinished`);
  }
  const layout = scanInputLayout(runcard, replicas);
  const { inputs, seconds: setup } = await prepareFitInputs(runcard, {
    runcardFile,
    replicas: layout.replicas,
    folds: layout.folds,
    ...(report === undefined ? {} : { report }),
  });
  const folds = foldData(inputs);
  const batches = Math.ceil(request.trials / trialsPerModel);
  report?.(
    `scanning ${request.trials} trials × ${folds.length} folds × ${replicas} replica(s), ${request.oneFoldPerModel === true ? 'one fold of one trial' : `${trialsPerModel} trials`} per model, ${labels.length} hyperparameters (${scan.sampler})`,
  );
  let trained = 0;
  let trainingSeconds = 0;
  for (let b = 0; b < batches; b++) {
    const count = Math.min(trialsPerModel, request.trials - b * trialsPerModel);
    if (existsSync(batchFile(folder, b))) {
      await refuseShortBatch(batchFile(folder, b), count);
      continue;
    }
    if (!(await claimBatch(folder, b, owner))) continue;
    let written = false;
    try {
      const history = finishedTrials(await finishedDocuments(folder));
      const points = suggestBatch(space, history, count, b, scan.sampler);
      const spaceValues = points.map((point) => evaluateSpace(space, point));
      const entries = spaceValues.map(trialEntry);
      const bookTime = new Date();
      const batchStart = performance.now();
      const onProgress =
        request.onProgress === undefined
          ? undefined
          : (progress: TrainingProgress) => request.onProgress?.(b, batches, progress);
      const options = { inputs, foldData: folds, replicas, onProgress, signal: request.signal };
      const trainedFolds =
        request.oneFoldPerModel === true
          ? await trainFoldsOneByOne(entries, { text, runcardFile, settings, options })
          : (await trainBatch(slotBatch(text, runcardFile, entries, replicas), settings, options))
              .folds;
      const seconds = (performance.now() - batchStart) / 1000;
      trainingSeconds += seconds;
      const refreshTime = new Date();
      const documents = points.map((point, t) => {
        const own = foldsTrained(
          trainedFolds.filter((fold) => fold.trial === t),
          settings,
        );
        return trialDocument({
          tid: b * trialsPerModel + t,
          point,
          labels,
          spaceValues: spaceValues[t],
          folds: own.map((fold) => fold.outcome),
          outcome: trialOutcome(own, settings),
          bookTime,
          refreshTime,
          batch: b,
          seconds,
        });
      });
      await writeFileAtomic(batchFile(folder, b), triesJson(documents));
      written = true;
      await writeTries(folder);
      trained += 1;
      const best = bestTrial(finishedTrials(await finishedDocuments(folder)));
      report?.(
        `batch ${b + 1}/${batches}: trials ${b * trialsPerModel}–${b * trialsPerModel + count - 1} in ${seconds.toFixed(1)} s, ` +
          `${documents.filter((document) => document.result.status === 'ok').length} ok; ` +
          `best so far trial ${best?.tid ?? '-'} loss ${best?.loss.toPrecision(5) ?? '-'}`,
      );
    } finally {
      if (!written) await releaseBatch(folder, b);
    }
  }
  const documents = await finishedDocuments(folder);
  const best = bestTrial(finishedTrials(documents));
  return {
    folder: folder.folder,
    triesFile: folder.tries,
    trials: documents.length,
    batchesTrained: trained,
    best:
      best === undefined
        ? undefined
        : {
            tid: best.tid,
            loss: best.loss,
            parameters: (
              documents.find((document) => (document as { tid: number }).tid === best.tid) as {
                misc: { space_vals: unknown };
              }
            ).misc.space_vals,
          },
    seconds: { setup, training: trainingSeconds },
  };
}

/**
 * n3fit's way: each trial's folds one after another, each as its own model of the trial's
 * replicas, the remaining folds skipped once one ends the trial (`foldEndsTrial`).
 */
async function trainFoldsOneByOne(
  entries: readonly Record<string, unknown>[],
  scan: {
    readonly text: string;
    readonly runcardFile: string;
    readonly settings: KfoldSettings;
    readonly options: TrainBatchOptions;
  },
): Promise<TrainedFold[]> {
  const { text, runcardFile, settings, options } = scan;
  const trained: TrainedFold[] = [];
  for (const [trial, entry] of entries.entries()) {
    for (let k = 0; k < options.foldData.length; k++) {
      const alone = slotBatch(text, runcardFile, [entry], options.replicas, [k]);
      const outcome = await trainBatch(alone, settings, options);
      trained.push(...outcome.folds.map((fold) => ({ ...fold, trial })));
      if (outcome.folds.some((fold) => foldEndsTrial(fold, k, settings))) break;
    }
  }
  return trained;
}

/** The `ok` trial with the lowest loss. */
function bestTrial<T extends { tid: number; loss: number; status: string }>(
  trials: readonly T[],
): T | undefined {
  return trials
    .filter((trial) => trial.status === 'ok' && Number.isFinite(trial.loss))
    .reduce<T | undefined>(
      (best, trial) => (best === undefined || trial.loss < best.loss ? trial : best),
      undefined,
    );
}
