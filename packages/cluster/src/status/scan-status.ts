import { readFile } from 'node:fs/promises';
import { InputFileError, PartonfitError } from '@partonfit/core';
import { pathExists } from '@partonfit/io';
import { batchFiles, readJsonFile, readScanSettings, scanFiles } from '../scan/scan-files.js';
import { failedScanTaskMarker } from '../slurm/sbatch-scripts.js';
import { queuedArrayTasks, type QueueState } from '../slurm/squeue.js';
import { readScanSubmissions, type ScanSubmission } from '../tasks/scan-tasks.js';

/** A batch in training: claimed, its trials not written yet. */
export interface ClaimedBatch {
  /** The batch's number, from 0. */
  readonly batch: number;
  /** Its first and last trial id. */
  readonly trials: readonly [first: number, last: number];
  /** Who claimed it, as its claim says: `SLURM job 12 task 3`, `pid 4242`. */
  readonly owner: string;
  /**
   * `running` when the owner is a SLURM task running now, `stale` when it is a SLURM task no
   * longer running (the claim was left behind by a killed task: no task trains the batch until
   * the claim is removed), `unknown` otherwise (a process outside SLURM, or the queue unread).
   */
  readonly state: 'running' | 'stale' | 'unknown';
  /** The claim file, `hyperopt/batches/batch_NNNN.claim`. */
  readonly claimFile: string;
}

/** The finished `ok` trial with the lowest loss, and the settings that matter most. */
export interface BestTrial {
  readonly tid: number;
  readonly loss: number;
  /** `nodes_per_layer`, the output layer included. */
  readonly layers: readonly number[] | undefined;
  /** `activation_per_layer`: one name for every hidden layer, or one per layer. */
  readonly activation: string | readonly string[] | undefined;
  /** `optimizer.optimizer_name`. */
  readonly optimizer: string | undefined;
  /** `optimizer.learning_rate`. */
  readonly learningRate: number | undefined;
  /** `epochs`. */
  readonly epochs: number | undefined;
}

/** Where the job array of one `partonfit submit --hyperopt` stands. */
export interface ScanJobStatus {
  /** The SLURM job id of the array. */
  readonly job: string;
  /** Its number of tasks. */
  readonly tasks: number;
  /** When it was submitted (ISO 8601). */
  readonly submitted: string;
  /** Its tasks in SLURM's queue (`RUNNING`, `PENDING`, …), by task; none once all ended. */
  readonly queued: readonly { readonly task: number; readonly state: QueueState }[];
  /** Its tasks that ended with a failed `partonfit hyperopt`, and their exit codes. */
  readonly failed: readonly { readonly task: number; readonly code: string }[];
}

/** Where a hyperparameter scan filled by one process or a SLURM job array stands. */
export interface ScanStatus {
  readonly scanFolder: string;
  /** The trials of the scan (N). */
  readonly trials: number;
  /** Trials trained together in one model (B). */
  readonly trialsPerModel: number;
  /** Finished trials: `ok` ones and failed ones (threshold or training failures). */
  readonly finished: { readonly total: number; readonly ok: number; readonly failed: number };
  /**
   * The batches, ⌈N / B⌉ of them: finished (their trials written), running (claimed without
   * trials), and left (neither).
   */
  readonly batches: {
    readonly total: number;
    readonly finished: number;
    readonly running: readonly ClaimedBatch[];
    readonly left: number;
  };
  /** The finished `ok` trial with the lowest loss, if any. */
  readonly best: BestTrial | undefined;
  /** Every `partonfit submit --hyperopt` of the scan (`slurm/scan-tasks.json`), oldest first. */
  readonly jobs: readonly ScanJobStatus[];
  /** Why SLURM's queue could not be asked, if it could not. */
  readonly queueProblem: string | undefined;
}

/** Options of {@link scanStatus}. */
export interface ScanStatusOptions {
  /** Asks SLURM for the queued tasks of an array job (default `squeue`). */
  readonly queue?: (jobId: string) => Promise<Map<number, QueueState>>;
}

const RUNNING = new Set(['RUNNING', 'COMPLETING', 'CONFIGURING', 'STAGE_OUT']);

/** The trial documents of a batch file, checked to be a list. */
async function batchDocuments(file: string): Promise<unknown[]> {
  const documents = await readJsonFile(file);
  if (!Array.isArray(documents)) {
    throw new InputFileError({ file, problem: "expected a list of the batch's trials" });
  }
  return documents as unknown[];
}

interface TrialDocument {
  readonly tid?: unknown;
  readonly result?: { readonly status?: unknown; readonly loss?: unknown };
  readonly misc?: { readonly space_vals?: unknown };
}

/** The settings of the best trial from its document's `misc.space_vals`. */
function bestTrial(document: TrialDocument, tid: number, loss: number): BestTrial {
  const values = (document.misc?.space_vals ?? {}) as Record<string, unknown>;
  const optimizer = (values.optimizer ?? {}) as Record<string, unknown>;
  const layers = values.nodes_per_layer;
  const activation = values.activation_per_layer;
  return {
    tid,
    loss,
    layers:
      Array.isArray(layers) && layers.every((units): units is number => typeof units === 'number')
        ? layers
        : undefined,
    activation:
      typeof activation === 'string' ||
      (Array.isArray(activation) &&
        activation.every((name): name is string => typeof name === 'string'))
        ? activation
        : undefined,
    optimizer: typeof optimizer.optimizer_name === 'string' ? optimizer.optimizer_name : undefined,
    learningRate: typeof optimizer.learning_rate === 'number' ? optimizer.learning_rate : undefined,
    epochs: typeof values.epochs === 'number' ? values.epochs : undefined,
  };
}

/** Counts of the finished trials and the best `ok` one (the lowest loss, then the lowest tid). */
function trialsOf(documents: readonly unknown[]): {
  finished: ScanStatus['finished'];
  best: BestTrial | undefined;
} {
  let ok = 0;
  let total = 0;
  let best: { document: TrialDocument; tid: number; loss: number } | undefined;
  for (const entry of documents) {
    const document = entry as TrialDocument;
    if (typeof document.tid !== 'number') continue;
    total++;
    if (document.result?.status !== 'ok') continue;
    ok++;
    const loss = document.result.loss;
    if (typeof loss !== 'number' || !Number.isFinite(loss)) continue;
    if (best === undefined || loss < best.loss || (loss === best.loss && document.tid < best.tid)) {
      best = { document, tid: document.tid, loss };
    }
  }
  return {
    finished: { total, ok, failed: total - ok },
    best: best === undefined ? undefined : bestTrial(best.document, best.tid, best.loss),
  };
}

/** The SLURM job and task of a claim's owner line, e.g. `SLURM job 12 task 3`. */
function slurmOwner(owner: string): { job: string; task: number } | undefined {
  const match = /^SLURM job (\S+) task (\d+)$/.exec(owner);
  return match === null ? undefined : { job: match[1], task: Number(match[2]) };
}

/** The settings of the scan: its `scan.json`, or else its latest submission. */
async function scanSize(
  scanFolder: string,
  latest: ScanSubmission | undefined,
): Promise<{ trials: number; trialsPerModel: number }> {
  const settings = await readScanSettings(scanFolder);
  if (settings !== undefined) return settings;
  if (latest !== undefined) return latest;
  throw new InputFileError({
    file: scanFiles(scanFolder).settings,
    problem: 'not a scan folder: no hyperopt/scan.json and no slurm/scan-tasks.json',
  });
}

/**
 * Where a hyperparameter scan stands: its trials finished of N (`ok` and failed), its batches
 * finished, running (claimed, with their owners: a claim whose SLURM task no longer runs is
 * `stale`), and left, the best trial so far with its main settings, and the job array of every
 * `partonfit submit --hyperopt` of it: its tasks in SLURM's queue and those that failed. Read
 * from `hyperopt/scan.json`, `hyperopt/batches/` and `slurm/scan-tasks.json`.
 *
 * @throws InputFileError when the folder holds no scan, or a file of it is damaged
 */
export async function scanStatus(
  scanFolder: string,
  options: ScanStatusOptions = {},
): Promise<ScanStatus> {
  const submissions = await readScanSubmissions(scanFolder);
  const { trials, trialsPerModel } = await scanSize(scanFolder, submissions.at(-1));
  const files = await batchFiles(scanFolder);
  const owners = new Map<number, string>();
  for (const [batch, file] of files.claimed) {
    const owner = await readFile(file, 'utf8').catch(() => undefined);
    if (owner !== undefined) owners.set(batch, owner.trim());
  }
  // The queue after the claims: a claim read before is stale only if its task is not running now.
  const queue = options.queue ?? queuedArrayTasks;
  const jobIds = new Set([
    ...submissions.map((submission) => submission.jobs.array),
    ...[...owners.values()].flatMap((owner) => slurmOwner(owner)?.job ?? []),
  ]);
  const queued = new Map<string, Map<number, QueueState>>();
  let queueProblem: string | undefined;
  for (const job of jobIds) {
    try {
      queued.set(job, await queue(job));
    } catch (error) {
      if (!PartonfitError.isInstance(error)) throw error;
      queueProblem = error.message;
    }
  }
  const running: ClaimedBatch[] = [];
  for (const [batch, owner] of [...owners].sort(([a], [b]) => a - b)) {
    const claimFile = files.claimed.get(batch) ?? '';
    const slurm = slurmOwner(owner);
    const states = slurm === undefined ? undefined : queued.get(slurm.job);
    let state: ClaimedBatch['state'] = 'unknown';
    if (slurm !== undefined && states !== undefined) {
      state = RUNNING.has(states.get(slurm.task) ?? '') ? 'running' : 'stale';
    }
    // A claim released meanwhile (its batch finished, or its task was interrupted) is gone.
    if (state === 'stale' && !(await pathExists(claimFile))) continue;
    const first = batch * trialsPerModel;
    const end = first + trialsPerModel;
    const last = (trials > first ? Math.min(end, trials) : end) - 1;
    running.push({ batch, trials: [first, last], owner, state, claimFile });
  }
  const documents: unknown[] = [];
  for (const file of files.finished.values()) documents.push(...(await batchDocuments(file)));
  const { finished, best } = trialsOf(documents);
  const jobs: ScanJobStatus[] = [];
  for (const submission of submissions) {
    const job = submission.jobs.array;
    const states = queued.get(job) ?? new Map<number, QueueState>();
    const failed: { task: number; code: string }[] = [];
    for (let task = 0; task < submission.tasks; task++) {
      if (states.has(task)) continue;
      const marker = failedScanTaskMarker(scanFolder, job, task);
      const code = await readFile(marker, 'utf8').catch(() => undefined);
      if (code !== undefined) failed.push({ task, code: code.trim() });
    }
    jobs.push({
      job,
      tasks: submission.tasks,
      submitted: submission.submitted,
      queued: [...states].sort(([a], [b]) => a - b).map(([task, state]) => ({ task, state })),
      failed,
    });
  }
  const total = Math.ceil(trials / trialsPerModel);
  return {
    scanFolder,
    trials,
    trialsPerModel,
    finished,
    batches: {
      total,
      finished: files.finished.size,
      running,
      left: Math.max(0, total - files.finished.size - running.length),
    },
    best,
    jobs,
    queueProblem,
  };
}
