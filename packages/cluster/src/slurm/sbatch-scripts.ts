import { join } from 'node:path';
import { formatReplicaSelection } from '@partonfit/core';
import { checkpointFile } from '@partonfit/fit-folder';
import { shellQuote } from './shell-quote.js';

/** The exit code of a fit interrupted by SIGTERM or SIGINT after writing its checkpoint. */
export const EXIT_INTERRUPTED = 75;

/** Seconds before the time limit at which SLURM sends SIGTERM to a task (`--signal`). */
export const SIGNAL_SECONDS = 120;

/** What the scripts of a fit's job array and its postfit job are made of. */
export interface JobScriptSettings {
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
  /** `--partition`. */
  readonly partition?: string;
  /** `--time` of each task, e.g. `12:00:00`. */
  readonly time?: string;
  /** `--gpus-per-task`. */
  readonly gpusPerTask?: number;
  /** More `#SBATCH` lines, each without the prefix, e.g. `--account=nnpdf`. */
  readonly extraSbatch?: readonly string[];
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

function sbatchLines(settings: JobScriptSettings, gpus: boolean): string[] {
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
  const log = join(slurmFolder(fitFolder), 'task_%A_%a.log');
  const markers = tasks.map((replicas) => failedTaskMarker(fitFolder, replicas));
  const fit = [
    ...settings.partonfit,
    'fit',
    settings.runcardFile,
    '--output',
    settings.outputFolder,
    ...(settings.fitOptions ?? []),
  ];
  return `#!/bin/bash
#SBATCH --job-name=${shellQuote(`partonfit-${settings.fit}`)}
#SBATCH --array=0-${tasks.length - 1}
#SBATCH --ntasks=1
#SBATCH --output=${log}
#SBATCH --open-mode=append
#SBATCH --requeue
#SBATCH --signal=B:TERM@${SIGNAL_SECONDS}
${sbatchLines(settings, true).join('\n')}
#
# Written by \`partonfit submit\`: ${tasks.length} task(s) fitting replicas ${formatReplicaSelection(tasks.flat())} of
# ${settings.runcardFile} into ${fitFolder}.
set -u
ranges=(${words(ranges)})
checkpoints=(${words(checkpoints)})
markers=(${words(markers)})
task=$SLURM_ARRAY_TASK_ID
rm -f "\${markers[$task]}"
resume=()
if [ -e "\${checkpoints[$task]}" ]; then resume=(--resume); fi
echo "partonfit task $task: replicas \${ranges[$task]} \${resume[*]}"
${words(fit)} --replicas "\${ranges[$task]}" "\${resume[@]}" &
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
  echo "$status" > "\${markers[$task]}"
fi
exit "$status"
`.replace(/\n\n#\n/, '\n#\n');
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
