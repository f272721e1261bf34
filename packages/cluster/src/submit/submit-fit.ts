import { mkdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Runcard } from '@partonfit/core';
import { checkFitFolderRuncard } from '@partonfit/fit-folder';
import { writeFileAtomic } from '@partonfit/io';
import { runSlurmCommand } from '../slurm/run-slurm-command.js';
import {
  arrayJobScript,
  postfitJobScript,
  slurmFolder,
  type JobScriptSettings,
} from '../slurm/sbatch-scripts.js';
import { recordFitSubmission } from '../tasks/fit-tasks.js';
import { taskRanges } from '../tasks/task-ranges.js';

/** What {@link submitFit} submits. */
export interface SubmitRequest extends Omit<
  JobScriptSettings,
  'fit' | 'fitFolder' | 'tasks' | 'runcardFile'
> {
  /** The runcard, validated, and its file (absolute). */
  readonly runcard: Runcard;
  readonly runcardFile: string;
  /** Every replica of the fit, ascending. */
  readonly replicas: readonly number[];
  /** Replicas per task. */
  readonly perTask: number;
  /** Write nothing and submit nothing: return the scripts. */
  readonly dryRun?: boolean;
}

/** What {@link submitFit} did. */
export interface Submission {
  readonly fitFolder: string;
  /** The replicas of each task, by task index. */
  readonly tasks: readonly (readonly number[])[];
  /** The job array's script and the postfit job's, and where they were written (not on a dry run). */
  readonly scripts: {
    readonly array: { readonly file: string; readonly text: string };
    readonly postfit: { readonly file: string; readonly text: string };
  };
  /** The SLURM job ids; undefined on a dry run. */
  readonly jobs: { readonly array: string; readonly postfit: string } | undefined;
}

/** The job id in `sbatch --parsable`'s answer (`123` or `123;cluster`). */
export function jobId(answer: string): string {
  return answer.trim().split(';')[0] ?? '';
}

/**
 * Submits a fit as a SLURM job array, one task per range of `perTask` replicas, each fitting into
 * the same fit folder `<output>/<runcard name>/`, and a job that runs postfit and the report once
 * every task succeeded (`--dependency=afterok`). The scripts go to `<fit>/slurm/` (`fit-array.sbatch`,
 * `postfit.sbatch`), the tasks and job ids are added to `<fit>/slurm/tasks.json`, the jobs' logs to
 * `<fit>/slurm/task_<job>_<i>.log` and `postfit.log`.
 *
 * A fit folder that holds another runcard's fit is refused before anything is submitted.
 *
 * @throws InvalidArgumentError for a bad `perTask`; InputFileError when the fit folder holds
 *   another runcard's fit; SchedulerError when `sbatch` is missing or refuses a job
 */
export async function submitFit(request: SubmitRequest): Promise<Submission> {
  const fit = basename(request.runcardFile, extname(request.runcardFile));
  const fitFolder = join(request.outputFolder, fit);
  const tasks = taskRanges(request.replicas, request.perTask);
  await checkFitFolderRuncard(fitFolder, request.runcard);
  const settings: JobScriptSettings = { ...request, fit, fitFolder, tasks };
  const folder = slurmFolder(fitFolder);
  const scripts = {
    array: { file: join(folder, 'fit-array.sbatch'), text: arrayJobScript(settings) },
    postfit: { file: join(folder, 'postfit.sbatch'), text: postfitJobScript(settings) },
  };
  if (request.dryRun === true) return { fitFolder, tasks, scripts, jobs: undefined };
  await mkdir(folder, { recursive: true });
  for (const { file, text } of Object.values(scripts)) {
    await writeFileAtomic(file, text);
  }
  const array = jobId(await runSlurmCommand('sbatch', ['--parsable', scripts.array.file]));
  const postfit = jobId(
    await runSlurmCommand('sbatch', [
      '--parsable',
      `--dependency=afterok:${array}`,
      '--kill-on-invalid-dep=yes',
      scripts.postfit.file,
    ]),
  );
  const jobs = { array, postfit };
  await recordFitSubmission(fitFolder, {
    runcardFile: request.runcardFile,
    outputFolder: request.outputFolder,
    perTask: request.perTask,
    tasks,
    fitOptions: request.fitOptions ?? [],
    jobs,
    submitted: new Date().toISOString(),
  });
  return { fitFolder, tasks, scripts, jobs };
}
