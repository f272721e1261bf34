import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { formatReplicaSelection, parseReplicaSelection, PartonfitError } from '@partonfit/core';
import { checkpointFile, fitFolderPaths } from '@partonfit/fit-folder';
import { pathExists, readHdf5File } from '@partonfit/io';
import { failedTaskMarker } from '../slurm/sbatch-scripts.js';
import { queuedArrayTasks, type QueueState } from '../slurm/squeue.js';
import { shellQuote } from '../slurm/shell-quote.js';
import { readFitSubmissions, type FitSubmission } from '../tasks/fit-tasks.js';

/** Where a range of replicas stands. */
export type RangeState = 'done' | 'running' | 'pending' | 'failed' | 'stopped' | 'not started';

/** The status of one range of replicas (one task). */
export interface RangeStatus {
  readonly replicas: readonly number[];
  readonly state: RangeState;
  /** Details in words: replicas written, the queue's state, the exit code, the checkpoint's epoch. */
  readonly detail: string;
}

/** Where a fit filled by several processes stands, and how to finish it. */
export interface FitStatus {
  readonly fitFolder: string;
  /** Every range, by first replica. */
  readonly ranges: readonly RangeStatus[];
  /** Why the queue could not be asked, if it could not (states then come from files alone). */
  readonly queueProblem: string | undefined;
  /**
   * The command that submits only the ranges that failed, stopped or never started, or
   * undefined when none did (or the fit was not submitted with `partonfit submit`).
   */
  readonly resubmit: string | undefined;
}

/** Options of {@link fitStatus}. */
export interface FitStatusOptions {
  /** Asks SLURM for the queued tasks of an array job (default `squeue`). */
  readonly queue?: (jobId: string) => Promise<Map<number, QueueState>>;
}

/** The ranges of a folder filled without `partonfit submit`: its checkpoints and summaries. */
async function rangesInFolder(fitFolder: string): Promise<number[][]> {
  const names = [
    ...(await readdir(fitFolder).catch(() => [])),
    ...(await readdir(join(fitFolder, 'summaries')).catch(() => [])),
  ];
  const selections = new Set(
    names.flatMap((name) => /^(?:checkpoint_)?replicas_(.+)\.(?:h5|json)$/.exec(name)?.[1] ?? []),
  );
  return [...selections].map((selection) => parseReplicaSelection(selection));
}

/** The epoch of a checkpoint, or undefined when it cannot be read. */
async function checkpointEpoch(file: string): Promise<number | undefined> {
  try {
    const epoch = (await readHdf5File(file)).attributes.epoch;
    return typeof epoch === 'number' ? epoch : undefined;
  } catch (error) {
    if (PartonfitError.isInstance(error)) return undefined;
    throw error;
  }
}

const RUNNING = new Set(['RUNNING', 'COMPLETING', 'CONFIGURING', 'STAGE_OUT']);

async function rangeStatus(
  fitFolder: string,
  replicas: readonly number[],
  queued: QueueState | undefined,
): Promise<RangeStatus> {
  const fit = basename(fitFolder);
  let written = 0;
  for (const replica of replicas) {
    if (await pathExists(fitFolderPaths(join(fitFolder, '..'), fit, replica).json)) written++;
  }
  const progress = `${written}/${replicas.length} replicas written`;
  if (written === replicas.length) return { replicas, state: 'done', detail: progress };
  if (queued !== undefined) {
    const state = RUNNING.has(queued) ? 'running' : 'pending';
    return { replicas, state, detail: `${queued.toLowerCase()} in SLURM's queue; ${progress}` };
  }
  const marker = failedTaskMarker(fitFolder, replicas);
  if (await pathExists(marker)) {
    const code = (await readFile(marker, 'utf8')).trim();
    return { replicas, state: 'failed', detail: `exit code ${code}; ${progress}` };
  }
  const checkpoint = checkpointFile(fitFolder, replicas);
  if (await pathExists(checkpoint)) {
    const epoch = await checkpointEpoch(checkpoint);
    return {
      replicas,
      state: 'stopped',
      detail: `checkpoint at epoch ${epoch ?? '?'}, not in SLURM's queue; ${progress}`,
    };
  }
  return { replicas, state: 'not started', detail: progress };
}

/** The command that submits `replicas` again as the latest submission did. */
function resubmitCommand(submission: FitSubmission, replicas: readonly number[]): string {
  return [
    'partonfit',
    'submit',
    submission.runcardFile,
    '--replicas',
    formatReplicaSelection(replicas),
    '--per-task',
    String(submission.perTask),
    '--output',
    submission.outputFolder,
    ...submission.fitOptions,
  ]
    .map(shellQuote)
    .join(' ');
}

/**
 * Where a fit filled by several processes stands, range by range: done (every replica's JSON
 * written), running or pending (in SLURM's queue), failed (the task's marker, with its exit
 * code), stopped (a checkpoint, not in the queue: interrupted and not requeued), or not started.
 * The ranges are those of every `partonfit submit` of the fit (`slurm/tasks.json`), or else
 * those of the folder's checkpoints and summaries. When ranges are missing, `resubmit` is the
 * `partonfit submit` command that fits only those (each resumes from its checkpoint).
 *
 * @throws InputFileError when `slurm/tasks.json` is not a valid record
 */
export async function fitStatus(
  fitFolder: string,
  options: FitStatusOptions = {},
): Promise<FitStatus> {
  const submissions = await readFitSubmissions(fitFolder);
  const queue = options.queue ?? queuedArrayTasks;
  let queueProblem: string | undefined;
  const queued = new Map<string, QueueState>();
  for (const submission of submissions) {
    try {
      const states = await queue(submission.jobs.array);
      for (const [task, state] of states) {
        const replicas = submission.tasks.at(task);
        if (replicas !== undefined) queued.set(formatReplicaSelection(replicas), state);
      }
    } catch (error) {
      if (!PartonfitError.isInstance(error)) throw error;
      queueProblem = error.message;
    }
  }
  const ranges =
    submissions.length > 0
      ? submissions.flatMap((submission) => submission.tasks)
      : await rangesInFolder(fitFolder);
  const unique = new Map(ranges.map((replicas) => [formatReplicaSelection(replicas), replicas]));
  const statuses: RangeStatus[] = [];
  for (const [selection, replicas] of unique) {
    statuses.push(await rangeStatus(fitFolder, replicas, queued.get(selection)));
  }
  statuses.sort((a, b) => (a.replicas[0] ?? 0) - (b.replicas[0] ?? 0));
  const missing = statuses
    .filter(({ state }) => state === 'failed' || state === 'stopped' || state === 'not started')
    .flatMap(({ replicas }) => replicas);
  const latest = submissions.at(-1);
  return {
    fitFolder,
    ranges: statuses,
    queueProblem,
    resubmit:
      missing.length === 0 || latest === undefined
        ? undefined
        : resubmitCommand(
            latest,
            [...missing].sort((a, b) => a - b),
          ),
  };
}
