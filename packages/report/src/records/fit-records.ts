import { readFile } from 'node:fs/promises';
import { pathExists } from '@partonfit/io';
import { basename, join, resolve } from 'node:path';
import { InputFileError, type Runcard } from '@partonfit/core';
import {
  listReplicaFolders,
  loadFitFolderRuncard,
  parseChi2ExpsLog,
  type Chi2ExpsEntry,
  POSTFIT_FILES,
  readReplicaFitInfo,
  type FitSummary,
  type ReplicaFitInfo,
} from '@partonfit/fit-folder';

/** What one replica's files say of its training. */
export interface ReplicaTraining extends ReplicaFitInfo {
  readonly replica: number;
  /** The epoch training stopped at, and the epoch whose weights were kept. */
  readonly stopEpoch: number | undefined;
  readonly bestEpoch: number | undefined;
  /** The `chi2exps.log` entries: epochs done, training loss, validation loss. */
  readonly log: readonly { epoch: number; training: number; validation: number }[];
  /**
   * The scan trial the replica's hyperparameters came from (`hyperparameters.trial.tid` of its
   * JSON, with `trial_specs`), else undefined.
   */
  readonly trial: number | undefined;
}

/** What postfit kept and discarded (`postfit/postfit.json`). */
export interface PostfitRecord {
  readonly thresholds: Readonly<Record<string, number>>;
  readonly selected: readonly { readonly member: number; readonly replica: number }[];
  readonly discarded: readonly { readonly replica: number; readonly reasons: readonly string[] }[];
  readonly diverged: readonly { readonly replica: number; readonly epoch: number }[];
  readonly invalid: readonly { readonly replica: number; readonly problem: string }[];
}

/** A fit folder's records: its runcard, summary, postfit record and replicas' training. */
export interface FitRecords {
  /** The fit's name (its folder's name). */
  readonly fit: string;
  readonly folder: string;
  readonly runcard: Runcard;
  /** `summary.json`; undefined when absent. */
  readonly summary: FitSummary | undefined;
  /** `postfit/postfit.json`; undefined before postfit. */
  readonly postfit: PostfitRecord | undefined;
  readonly replicas: readonly ReplicaTraining[];
  /** What could not be read, in words (a replica without its JSON, no postfit, …). */
  readonly problems: readonly string[];
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new InputFileError({
      file,
      problem: `not readable as JSON: ${(error as Error).message}`,
    });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new InputFileError({ file, problem: 'expected a JSON object' });
  }
  return document as Record<string, unknown>;
}

function epochOf(document: Record<string, unknown>, key: string): number | undefined {
  const value = document[key];
  return typeof value === 'number' ? value : undefined;
}

async function replicaTraining(
  folder: string,
  fit: string,
  replica: number,
): Promise<ReplicaTraining> {
  const json = join(folder, `${fit}.json`);
  const info = await readReplicaFitInfo(json);
  const document = await readJson(json);
  const logFile = join(folder, 'chi2exps.log');
  const entries = (await pathExists(logFile))
    ? parseChi2ExpsLog(await readFile(logFile, 'utf8'), logFile)
    : new Map<number, Chi2ExpsEntry>();
  const log = [...entries].map(([epoch, entry]) => ({
    epoch,
    training: entry.trainingLoss,
    validation: Array.isArray(entry.validationLoss) ? Number.NaN : (entry.validationLoss as number),
  }));
  const hyperparameters = document.hyperparameters;
  const trial =
    typeof hyperparameters === 'object' && hyperparameters !== null
      ? (hyperparameters as { trial?: { tid?: unknown } }).trial?.tid
      : undefined;
  return {
    ...info,
    replica,
    stopEpoch: epochOf(document, 'stop_epoch'),
    bestEpoch: epochOf(document, 'best_epoch'),
    log,
    trial: typeof trial === 'number' ? trial : undefined,
  };
}

/**
 * Reads what a report shows of a fit folder: `runcard.yml` (required), `summary.json`,
 * `postfit/postfit.json` and every `nnfit/replica_<r>`'s JSON and `chi2exps.log`. What is
 * missing or unreadable besides the runcard is listed in `problems`, so a report shows the rest.
 *
 * @throws RuncardError for a missing or invalid `runcard.yml`; InputFileError for a folder
 *   without `nnfit/`
 */
export async function readFitRecords(fitFolder: string): Promise<FitRecords> {
  const folder = resolve(fitFolder);
  const fit = basename(folder);
  const { runcard } = await loadFitFolderRuncard(folder);
  const problems: string[] = [];
  const summaryFile = join(folder, 'summary.json');
  const summary = (await pathExists(summaryFile))
    ? ((await readJson(summaryFile)) as unknown as FitSummary)
    : undefined;
  if (summary === undefined) problems.push(`${summaryFile}: missing`);
  const postfitFile = join(folder, POSTFIT_FILES.folder, POSTFIT_FILES.summary);
  const postfit = (await pathExists(postfitFile))
    ? ((await readJson(postfitFile)) as unknown as PostfitRecord)
    : undefined;
  if (postfit === undefined) {
    problems.push(
      `no ${postfitFile}: the report shows every fitted replica (run partonfit postfit)`,
    );
  }
  const nnfit = join(folder, 'nnfit');
  const replicas: ReplicaTraining[] = [];
  for (const replica of await listReplicaFolders(nnfit)) {
    try {
      replicas.push(await replicaTraining(join(nnfit, `replica_${replica}`), fit, replica));
    } catch (error) {
      if (!InputFileError.isInstance(error)) throw error;
      problems.push(`replica ${replica}: ${error.message}`);
    }
  }
  return { fit, folder, runcard, summary, postfit, replicas, problems };
}
