import { join } from 'node:path';
import { formatReplicaSelection } from '@partonfit/core';
import { checkpointFile } from '@partonfit/fit-folder';
import { shellQuote } from './shell-quote.js';

/** The exit code of a fit interrupted by SIGTERM or SIGINT after writing its checkpoint. */
export const EXIT_INTERRUPTED = 75;

/** Seconds before the time limit at which SLURM sends SIGTERM to a task (`--signal`). */
export const SIGNAL_SECONDS = 120;

/** The `#SBATCH` requests a user adds to every job partonfit submits (fits' and scans'). */
export interface SbatchRequests {
  /** `--partition`. */
  readonly partition?: string;
  /** `--time` of each task, e.g. `12:00:00`. */
  readonly time?: string;
  /** `--gpus-per-task` (array tasks only). */
  readonly gpusPerTask?: number;
  /** More `#SBATCH` lines, each without the prefix, e.g. `--account=nnpdf`. */
  readonly extraSbatch?: readonly string[];
}

/** What the scripts of a fit's job array and its postfit job are made of. */
export interface JobScriptSettings extends SbatchRequests {
  /** The fit's name (the fit folder's). */
  readonly fit: string;
  /** `<output>/<fit>`, absolute. */
  readonly fitFolder: string;
  /** The runcard, absolute. */
  readonly runcardFile: string;
  /** `--output` of the tasks, absolute. */
  readonly outputFolder: string;
  /** The replicas of each task. */
  readonly tasks: readonly (readonly number[])[];
  /** The command that runs partonfit on the nodes, e.g. `[node, …/cli/dist/main.js]`. */
  readonly partonfit: readonly string[];
  /** More `partonfit fit` options for every task, e.g. `['--backend', 'native']`. */
  readonly fitOptions?: readonly string[];
  /** Options of the postfit job's `partonfit postfit`. */
  readonly postfitOptions?: readonly string[];
}

/** What the script of a hyperparameter scan's job array is made of. */
export interface ScanScriptSettings extends SbatchRequests {
  /** The scan's name (the scan folder's: the runcard's name). */
  readonly scan: string;
  /** `<output>/<scan>`, absolute. */
  readonly scanFolder: string;
  /** The scan runcard, absolute. */
  readonly runcardFile: string;
  /** `--output` of the tasks, absolute. */
  readonly outputFolder: string;
  /** The number of tasks of the array. */
  readonly tasks: number;
  /** The command that runs partonfit on the nodes, e.g. `[node, …/cli/dist/main.js]`. */
  readonly partonfit: readonly string[];
  /** The trials of the scan (`--trials`). */
  readonly trials: number;
  /** Trials trained together in one model (`--trials-per-model`). */
  readonly trialsPerModel: number;
  /** Replicas of every trial on every fold (`--replicas`). */
  readonly replicas: number;
  /** `--sampler`: `tpe` or `random`. */
  readonly sampler: string;
  /** More `partonfit hyperopt` options for every task, e.g. `['--backend', 'native']`. */
  readonly hyperoptOptions?: readonly string[];
}

/** `<fit>/slurm`: the scripts, `tasks.json`, the jobs' logs and the failed tasks' markers. */
export function slurmFolder(fitFolder: string): string {
  return join(fitFolder, 'slurm');
}

/**
 * `<fit>/slurm/failed_replicas_<selection>`: written by the task fitting `replicas` when its fit
 * fails (the exit code), removed when it starts again.
 */
export function failedTaskMarker(fitFolder: string, replicas: readonly number[]): string {
  return join(slurmFolder(fitFolder), `failed_replicas_${formatReplicaSelection(replicas)}`);
}

/**
 * `<scan>/slurm/failed_task_<job>_<task>`: written by task `task` of the scan's array job `job`
 * when its `partonfit hyperopt` fails (the exit code), removed when it starts again.
 */
export function failedScanTaskMarker(scanFolder: string, job: string, task: number): string {
  return join(slurmFolder(scanFolder), `failed_task_${job}_${task}`);
}

function sbatchLines(settings: SbatchRequests, gpus: boolean): string[] {
  return [
    ...(settings.partition === undefined ? [] : [`--partition=${settings.partition}`]),
    ...(settings.time === undefined ? [] : [`--time=${settings.time}`]),
    ...(gpus && settings.gpusPerTask !== undefined
      ? [`--gpus-per-task=${settings.gpusPerTask}`]
      : []),
    ...(settings.extraSbatch ?? []),
  ].map((line) => `#SBATCH ${line}`);
}

const words = (values: readonly string[]) => values.map(shellQuote).join(' ');

/** A job array of partonfit commands, one per task, each supervised the same way. */
interface ArrayJob {
  /** `--job-name`. */
  readonly name: string;
  /** The number of tasks. */
  readonly tasks: number;
  /** The fit or scan folder: the tasks' logs go to its `slurm/task_<job>_<task>.log`. */
  readonly folder: string;
  readonly requests: SbatchRequests;
  /** The script's comment, each line starting with `# `. */
  readonly comment: string;
  /** Shell lines that set `task` (the array index) and whatever the command and marker use. */
  readonly setup: readonly string[];
  /** The task's command, as shell text. */
  readonly command: string;
  /** A shell word naming the file that receives the exit code of a failed command. */
  readonly marker: string;
}

/**
 * An array job's script: its `#SBATCH` lines (requeueable, SIGTERM {@link SIGNAL_SECONDS} s before
 * the time limit), the set-up, then the command in the background with SIGTERM and SIGINT passed
 * on to it; an interrupted command ({@link EXIT_INTERRUPTED}) requeues the task, a failed one
 * writes its exit code to the marker.
 */
function arrayScript(job: ArrayJob): string {
  return `#!/bin/bash
#SBATCH --job-name=${shellQuote(job.name)}
#SBATCH --array=0-${job.tasks - 1}
#SBATCH --ntasks=1
#SBATCH --output=${join(slurmFolder(job.folder), 'task_%A_%a.log')}
#SBATCH --open-mode=append
#SBATCH --requeue
#SBATCH --signal=B:TERM@${SIGNAL_SECONDS}
${sbatchLines(job.requests, true).join('\n')}
#
${job.comment}
set -u
${job.setup.join('\n')}
${job.command} &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM INT
wait "$child"
status=$?
while kill -0 "$child" 2>/dev/null; do
  wait "$child"
  status=$?
done
if [ "$status" -eq ${EXIT_INTERRUPTED} ]; then
  scontrol requeue "\${SLURM_ARRAY_JOB_ID}_$task" || true
elif [ "$status" -ne 0 ]; then
  echo "$status" > ${job.marker}
fi
exit "$status"
`.replace(/\n\n#\n/, '\n#\n');
}

/**
 * The sbatch script of a fit's job array: task `i` runs `partonfit fit <runcard> --replicas
 * <range i> --output <output>` into the shared fit folder, with `--resume` when its checkpoint
 * exists (a requeued task continues). SIGTERM (SLURM's preemption, `scontrol requeue`, and the
 * `--signal` sent {@link SIGNAL_SECONDS} s before the time limit) reaches the fit, which writes
 * its checkpoint and exits with {@link EXIT_INTERRUPTED}; the task then asks SLURM to requeue it.
 * A task whose fit fails writes its exit code to `slurm/failed_replicas_<range>`; logs go to
 * `slurm/task_<job>_<i>.log`.
 */
export function arrayJobScript(settings: JobScriptSettings): string {
  const { fitFolder, tasks } = settings;
  const ranges = tasks.map((replicas) => formatReplicaSelection(replicas));
  const checkpoints = tasks.map((replicas) => checkpointFile(fitFolder, replicas));
  const markers = tasks.map((replicas) => failedTaskMarker(fitFolder, replicas));
  const fit = [
    ...settings.partonfit,
    'fit',
    settings.runcardFile,
    '--output',
    settings.outputFolder,
    ...(settings.fitOptions ?? []),
  ];
  return arrayScript({
    name: `partonfit-${settings.fit}`,
    tasks: tasks.length,
    folder: fitFolder,
    requests: settings,
    comment: `# Written by \`partonfit submit\`: ${tasks.length} task(s) fitting replicas ${formatReplicaSelection(tasks.flat())} of
# ${settings.runcardFile} into ${fitFolder}.`,
    setup: [
      `ranges=(${words(ranges)})`,
      `checkpoints=(${words(checkpoints)})`,
      `markers=(${words(markers)})`,
      'task=$SLURM_ARRAY_TASK_ID',
      'rm -f "${markers[$task]}"',
      'resume=()',
      'if [ -e "${checkpoints[$task]}" ]; then resume=(--resume); fi',
      'echo "partonfit task $task: replicas ${ranges[$task]} ${resume[*]}"',
    ],
    command: `${words(fit)} --replicas "\${ranges[$task]}" "\${resume[@]}"`,
    marker: '"${markers[$task]}"',
  });
}

/**
 * The sbatch script of a hyperparameter scan's job array: every task runs the same `partonfit
 * hyperopt <runcard> --trials N --trials-per-model B --replicas R --sampler S --output <output>
 * --join`, which claims the scan's batches one at a time (a batch no other task has claimed or
 * finished), trains it and writes its trials into the shared scan folder, until none is left.
 * SIGTERM reaches the scan, which releases the batch in training and exits with
 * {@link EXIT_INTERRUPTED}; the task then asks SLURM to requeue it, and joins again. A task whose
 * scan fails writes its exit code to `slurm/failed_task_<job>_<i>` (see
 * {@link failedScanTaskMarker}); logs go to `slurm/task_<job>_<i>.log`.
 */
export function scanJobScript(settings: ScanScriptSettings): string {
  const { scanFolder, trials, trialsPerModel, tasks } = settings;
  const hyperopt = [
    ...settings.partonfit,
    'hyperopt',
    settings.runcardFile,
    '--trials',
    String(trials),
    '--trials-per-model',
    String(trialsPerModel),
    '--replicas',
    String(settings.replicas),
    '--sampler',
    settings.sampler,
    '--output',
    settings.outputFolder,
    '--join',
    ...(settings.hyperoptOptions ?? []),
  ];
  const batches = Math.ceil(trials / trialsPerModel);
  const markers = join(slurmFolder(scanFolder), 'failed_task_');
  return arrayScript({
    name: `partonfit-hyperopt-${settings.scan}`,
    tasks,
    folder: scanFolder,
    requests: settings,
    comment: `# Written by \`partonfit submit --hyperopt\`: ${tasks} task(s) sharing the ${trials} trial(s) of
# ${settings.runcardFile}, ${batches} batch(es) of ${trialsPerModel}, in ${scanFolder}:
# each task trains the next batch no task has claimed until none is left.`,
    setup: [
      'task=$SLURM_ARRAY_TASK_ID',
      `marker=${shellQuote(markers)}"\${SLURM_ARRAY_JOB_ID}_$task"`,
      'rm -f "$marker"',
      'echo "partonfit scan task $task of job ${SLURM_ARRAY_JOB_ID}"',
    ],
    command: words(hyperopt),
    marker: '"$marker"',
  });
}

/**
 * The sbatch script of the job that runs once every task has succeeded: `partonfit postfit`, then
 * `partonfit report` of the fit (into `<fit>/report/`).
 */
export function postfitJobScript(settings: JobScriptSettings): string {
  const postfit = [
    ...settings.partonfit,
    'postfit',
    settings.fitFolder,
    ...(settings.postfitOptions ?? []),
  ];
  const report = [...settings.partonfit, 'report', settings.fitFolder];
  return `#!/bin/bash
#SBATCH --job-name=${shellQuote(`partonfit-${settings.fit}-postfit`)}
#SBATCH --ntasks=1
#SBATCH --output=${join(slurmFolder(settings.fitFolder), 'postfit.log')}
${sbatchLines(settings, false).join('\n')}
#
# Written by \`partonfit submit\`: postfit and the report of ${settings.fitFolder} once the fit's
# tasks succeeded.
set -eu
${words(postfit)}
${words(report)}
`.replace(/\n\n#\n/, '\n#\n');
}
