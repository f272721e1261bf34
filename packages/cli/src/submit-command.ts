import { resolve } from 'node:path';
import {
  formatReplicaSelection,
  InvalidArgumentError,
  loadRuncard,
  oneOf,
  parseReplicaSelection,
} from '@partonfit/core';
import {
  submitFit,
  submitScan,
  type SbatchRequests,
  type Submission,
  type SubmittedScan,
} from '@partonfit/cluster';
import { BACKEND_REQUESTS } from '@partonfit/backend';
import { DEFAULT_TRIALS_PER_MODEL, SAMPLERS } from '@partonfit/hyperopt';
import { defineCommand, UsageError } from './define-command.js';
import { backendOption, positiveOption } from './option-values.js';
import { partonfitCommand } from './partonfit-command.js';
import type { Terminal } from './terminal.js';

const COMMON = `[--output <folder>] [--partition <name>] [--time <limit>] [--gpus-per-task <n>] [--extra-sbatch='<sbatch options>'] [--backend ${BACKEND_REQUESTS.join('|')}] [--dry-run]`;
const USAGE = [
  `partonfit submit <runcard.yml> --replicas 1-1000 --per-task 100 [--postfit='<postfit options>'] [--checkpoint-every <epochs>] ${COMMON}`,
  `       partonfit submit <scan runcard.yml> --hyperopt N --tasks T [--trials-per-model ${DEFAULT_TRIALS_PER_MODEL}] [--replicas 1] [--sampler ${SAMPLERS.join('|')}] ${COMMON}`,
].join('\n');

/** The options only a fit's submission takes, and those only a scan's takes. */
const FIT_ONLY = ['per-task', 'postfit', 'checkpoint-every'] as const;
const SCAN_ONLY = ['tasks', 'trials-per-model', 'sampler'] as const;

/** Words of an option that holds several, e.g. `--extra-sbatch='--account=nnpdf --qos=long'`. */
function words(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(/\s+/)).filter((word) => word !== '');
}

function describeSubmission(submission: Submission, dryRun: boolean): string {
  const { tasks, fitFolder, jobs, scripts } = submission;
  const replicas = formatReplicaSelection(tasks.flat());
  if (dryRun || jobs === undefined) {
    return [
      `# ${scripts.array.file}: ${tasks.length} task(s), replicas ${replicas}`,
      scripts.array.text,
      `# ${scripts.postfit.file}: submitted with --dependency=afterok:<array job>`,
      scripts.postfit.text,
    ].join('\n');
  }
  return [
    `submitted ${tasks.length} task(s) fitting replicas ${replicas} into ${fitFolder}`,
    `  job array ${jobs.array} (task i fits range i of slurm/tasks.json), postfit job ${jobs.postfit} after it`,
    `  follow:  squeue -j ${jobs.array},${jobs.postfit}   logs in ${fitFolder}/slurm/`,
    `  status:  partonfit status ${fitFolder}`,
    '',
  ].join('\n');
}

function describeScan(submitted: SubmittedScan, trials: number, dryRun: boolean): string {
  const { tasks, batches, scanFolder, job, script } = submitted;
  const share = `${tasks} task(s) sharing ${trials} trial(s) in ${batches} batch(es)`;
  const lines =
    dryRun || job === undefined
      ? [`# ${script.file}: ${share}`, script.text]
      : [
          `submitted ${share} of the scan ${scanFolder}`,
          `  job array ${job} (every task trains the next unclaimed batch until none is left)`,
          `  follow:  squeue -j ${job}   logs in ${scanFolder}/slurm/`,
          `  status:  partonfit status ${scanFolder}`,
          '',
        ];
  if (tasks > batches) {
    lines.push(
      `note: ${tasks - batches} of the ${tasks} tasks will find no batch to train (${batches} batch(es) of --trials-per-model)`,
      '',
    );
  }
  return lines.join('\n');
}

/**
 * `--replicas` of a scan: the replicas of every trial on every fold, a positive integer, not the
 * replica selection of a fit.
 */
function scanReplicas(text: string | undefined): number {
  if (text === undefined) return 1;
  if (!/^\s*\d+\s*$/.test(text) || Number(text) < 1) {
    throw new UsageError(
      `--replicas: with --hyperopt it is the number of replicas of every trial on every fold, a positive integer, got '${text}' (a replica selection such as 1-100 is for fits)`,
    );
  }
  return Number(text);
}

/**
 * `partonfit submit <runcard>`: the fit as a SLURM job array of replica ranges into one fit
 * folder, and postfit after it (see `submitFit`); with `--hyperopt N --tasks T`, a
 * hyperparameter scan as a job array of T tasks sharing its batches (see `submitScan`).
 * `--dry-run` prints the scripts.
 */
export const submitCommand = defineCommand({
  name: 'submit',
  summary: 'fit replica ranges as a SLURM job array, then postfit; or share a scan (--hyperopt)',
  usage: USAGE,
  options: {
    replicas: { type: 'string' },
    'per-task': { type: 'string' },
    hyperopt: { type: 'string' },
    tasks: { type: 'string' },
    'trials-per-model': { type: 'string' },
    sampler: { type: 'string' },
    output: { type: 'string', default: '.' },
    partition: { type: 'string' },
    time: { type: 'string' },
    'gpus-per-task': { type: 'string' },
    'extra-sbatch': { type: 'string', multiple: true },
    postfit: { type: 'string', multiple: true },
    backend: { type: 'string' },
    'checkpoint-every': { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
  },
  positionals: 1,
  run: async ({ values, positionals: [file] }, terminal: Terminal) => {
    const scan = values.hyperopt !== undefined;
    const wrong = (scan ? FIT_ONLY : SCAN_ONLY).find((option) => values[option] !== undefined);
    if (wrong !== undefined) {
      throw new UsageError(
        scan
          ? `--${wrong} is for fits: a scan (--hyperopt) is shared by --tasks tasks, without postfit`
          : `--${wrong} is for scans: give --hyperopt N to submit a hyperparameter scan`,
      );
    }
    const gpus = values['gpus-per-task'];
    const backend = backendOption(values.backend);
    const backendOptions = backend === undefined ? [] : ['--backend', backend];
    const requests: SbatchRequests = {
      extraSbatch: words(values['extra-sbatch']),
      ...(values.partition === undefined ? {} : { partition: values.partition }),
      ...(values.time === undefined ? {} : { time: values.time }),
      ...(gpus === undefined ? {} : { gpusPerTask: positiveOption('--gpus-per-task', gpus) }),
    };
    const runcardFile = resolve(file);
    const dryRun = values['dry-run'];
    if (values.hyperopt !== undefined) {
      const trials = positiveOption('--hyperopt', values.hyperopt);
      if (values.tasks === undefined) {
        throw new UsageError('--tasks: how many SLURM tasks share the scan (--hyperopt)');
      }
      const tasks = positiveOption('--tasks', values.tasks);
      const trialsPerModel =
        values['trials-per-model'] === undefined
          ? undefined
          : positiveOption('--trials-per-model', values['trials-per-model']);
      const replicas = scanReplicas(values.replicas);
      let sampler: string;
      try {
        sampler = oneOf(values.sampler ?? 'tpe', SAMPLERS, '--sampler');
      } catch (error) {
        if (InvalidArgumentError.isInstance(error)) throw new UsageError(error.message);
        throw error;
      }
      const { runcard } = await loadRuncard(runcardFile);
      const submitted = await submitScan({
        ...requests,
        runcard,
        runcardFile,
        outputFolder: resolve(values.output),
        partonfit: partonfitCommand(),
        trials,
        tasks,
        ...(trialsPerModel === undefined ? {} : { trialsPerModel }),
        replicas,
        sampler,
        hyperoptOptions: backendOptions,
        dryRun,
      });
      terminal.out(describeScan(submitted, trials, dryRun));
      return;
    }
    const perTask = positiveOption('--per-task', values['per-task'] ?? '100');
    const checkpointEvery = values['checkpoint-every'];
    const fitOptions = [
      ...backendOptions,
      ...(checkpointEvery === undefined
        ? []
        : ['--checkpoint-every', String(positiveOption('--checkpoint-every', checkpointEvery))]),
    ];
    const replicas = parseReplicaSelection(values.replicas ?? '1');
    const { runcard } = await loadRuncard(runcardFile);
    const submission = await submitFit({
      ...requests,
      runcard,
      runcardFile,
      replicas,
      perTask,
      outputFolder: resolve(values.output),
      partonfit: partonfitCommand(),
      fitOptions,
      postfitOptions: words(values.postfit),
      dryRun,
    });
    terminal.out(describeSubmission(submission, dryRun));
  },
});
