import { resolve } from 'node:path';
import { formatReplicaSelection, loadRuncard, parseReplicaSelection } from '@partonfit/core';
import { submitFit, type Submission } from '@partonfit/cluster';
import { BACKEND_REQUESTS } from '@partonfit/backend';
import { defineCommand } from './define-command.js';
import { backendOption, positiveOption } from './option-values.js';
import { partonfitCommand } from './partonfit-command.js';
import type { Terminal } from './terminal.js';

const USAGE = `partonfit submit <runcard.yml> --replicas 1-1000 --per-task 100 [--output <folder>] [--partition <name>] [--time <limit>] [--gpus-per-task <n>] [--extra-sbatch='<sbatch options>'] [--postfit='<postfit options>'] [--backend ${BACKEND_REQUESTS.join('|')}] [--checkpoint-every <epochs>] [--dry-run]`;

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

/**
 * `partonfit submit <runcard>`: the fit as a SLURM job array of replica ranges into one fit
 * folder, and postfit after it (see `submitFit`); `--dry-run` prints the scripts.
 */
export const submitCommand = defineCommand({
  name: 'submit',
  summary: 'fit replica ranges as a SLURM job array into one fit folder, then postfit',
  usage: USAGE,
  options: {
    replicas: { type: 'string', default: '1' },
    'per-task': { type: 'string', default: '100' },
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
    const perTask = positiveOption('--per-task', values['per-task']);
    const gpus = values['gpus-per-task'];
    const backend = backendOption(values.backend);
    const checkpointEvery = values['checkpoint-every'];
    const fitOptions = [
      ...(backend === undefined ? [] : ['--backend', backend]),
      ...(checkpointEvery === undefined
        ? []
        : ['--checkpoint-every', String(positiveOption('--checkpoint-every', checkpointEvery))]),
    ];
    const runcardFile = resolve(file);
    const replicas = parseReplicaSelection(values.replicas);
    const { runcard } = await loadRuncard(runcardFile);
    const dryRun = values['dry-run'];
    const submission = await submitFit({
      runcard,
      runcardFile,
      replicas,
      perTask,
      outputFolder: resolve(values.output),
      partonfit: partonfitCommand(),
      fitOptions,
      postfitOptions: words(values.postfit),
      extraSbatch: words(values['extra-sbatch']),
      ...(values.partition === undefined ? {} : { partition: values.partition }),
      ...(values.time === undefined ? {} : { time: values.time }),
      ...(gpus === undefined ? {} : { gpusPerTask: positiveOption('--gpus-per-task', gpus) }),
      dryRun,
    });
    terminal.out(describeSubmission(submission, dryRun));
  },
});
