import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatReplicaSelection, InputFileError, parseReplicaSelection } from '@partonfit/core';
import { writeFileAtomic } from '@partonfit/io';
import { slurmFolder } from '../slurm/sbatch-scripts.js';

/** One `partonfit submit` of a fit: which task fits which replicas, and its jobs. */
export interface FitSubmission {
  /** The runcard the tasks fit, absolute. */
  readonly runcardFile: string;
  /** `--output` of the tasks, absolute. */
  readonly outputFolder: string;
  /** Replicas per task (`--per-task`). */
  readonly perTask: number;
  /** The replicas of each task, by task index. */
  readonly tasks: readonly (readonly number[])[];
  /** The `partonfit fit` options every task passed on (e.g. `--backend native`). */
  readonly fitOptions: readonly string[];
  /** The SLURM job ids: the array's and the postfit job's. */
  readonly jobs: { readonly array: string; readonly postfit: string };
  /** When it was submitted (ISO 8601). */
  readonly submitted: string;
}

/** `<fit>/slurm/tasks.json`: every submission of the fit, oldest first. */
export function fitTasksFile(fitFolder: string): string {
  return join(slurmFolder(fitFolder), 'tasks.json');
}

/** The document of `tasks.json`: replica ranges written as `1-10`. */
function document(submissions: readonly FitSubmission[]): string {
  const entries = submissions.map((submission) => ({
    ...submission,
    tasks: submission.tasks.map((replicas, task) => ({
      task,
      replicas: formatReplicaSelection(replicas),
    })),
  }));
  return `${JSON.stringify({ submissions: entries }, null, 2)}\n`;
}

/** One submission read back, every entry checked. */
function submissionOf(file: string, entry: unknown, index: number): FitSubmission {
  const key = `submissions[${index}]`;
  const record = entry as Record<string, unknown> | null;
  const tasks = record?.tasks;
  const jobs = record?.jobs as Record<string, unknown> | undefined;
  const valid =
    record !== null &&
    typeof record === 'object' &&
    ['runcardFile', 'outputFolder', 'submitted'].every(
      (name) => typeof record[name] === 'string',
    ) &&
    typeof record.perTask === 'number' &&
    Array.isArray(record.fitOptions) &&
    typeof jobs?.array === 'string' &&
    typeof jobs.postfit === 'string' &&
    Array.isArray(tasks) &&
    tasks.every((task) => typeof (task as { replicas?: unknown }).replicas === 'string');
  if (!valid) {
    throw new InputFileError({
      file,
      key,
      problem:
        'expected { runcardFile, outputFolder, perTask, tasks: [{ task, replicas }], fitOptions, jobs: { array, postfit }, submitted }',
    });
  }
  return {
    ...(record as unknown as FitSubmission),
    tasks: (tasks as { replicas: string }[]).map(({ replicas }) => {
      try {
        return parseReplicaSelection(replicas);
      } catch (cause) {
        throw new InputFileError({ file, key: `${key}.tasks`, problem: String(cause), cause });
      }
    }),
  };
}

/**
 * Every submission of the fit in `<fit>/slurm/tasks.json`, oldest first; none when the fit was
 * never submitted as tasks.
 *
 * @throws InputFileError naming the file (and entry) when it is not such a record
 */
export async function readFitSubmissions(fitFolder: string): Promise<FitSubmission[]> {
  const file = fitTasksFile(fitFolder);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new InputFileError({ file, problem: `cannot read it (${String(error)})`, cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new InputFileError({ file, problem: `not JSON (${String(cause)})`, cause });
  }
  const submissions = (parsed as { submissions?: unknown } | null)?.submissions;
  if (!Array.isArray(submissions)) {
    throw new InputFileError({ file, key: 'submissions', problem: 'expected a list' });
  }
  return submissions.map((entry, index) => submissionOf(file, entry, index));
}

/** Adds a submission to `<fit>/slurm/tasks.json` (written atomically). */
export async function recordFitSubmission(
  fitFolder: string,
  submission: FitSubmission,
): Promise<void> {
  const earlier = await readFitSubmissions(fitFolder);
  await mkdir(slurmFolder(fitFolder), { recursive: true });
  await writeFileAtomic(fitTasksFile(fitFolder), document([...earlier, submission]));
}
