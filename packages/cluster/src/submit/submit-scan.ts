import { mkdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import {
  DEFAULT_TRIALS_PER_MODEL,
  InputFileError,
  positiveInteger,
  RuncardError,
  runcardDifference,
  runcardDigest,
  scanRequirements,
  type Runcard,
} from '@partonfit/core';
import { loadFitFolderRuncard } from '@partonfit/fit-folder';
import { pathExists, writeFileAtomic } from '@partonfit/io';
import { readScanSettings, scanFiles, type ScanSettings } from '../scan/scan-files.js';
import { runSlurmCommand } from '../slurm/run-slurm-command.js';
import {
  scanJobScript,
  slurmFolder,
  type SbatchRequests,
  type ScanScriptSettings,
} from '../slurm/sbatch-scripts.js';
import { jobId } from './submit-fit.js';
import { recordScanSubmission } from '../tasks/scan-tasks.js';

/** What {@link submitScan} submits. */
export interface ScanSubmitRequest extends SbatchRequests {
  /** The scan runcard, validated (with `kfold` and `hyperscan_config`), and its file (absolute). */
  readonly runcard: Runcard;
  readonly runcardFile: string;
  /** The folder that receives the scan folder `<output>/<runcard name>/`, absolute. */
  readonly outputFolder: string;
  /** The command that runs partonfit on the nodes, e.g. `[node, …/cli/dist/main.js]`. */
  readonly partonfit: readonly string[];
  /** The trials of the scan (n3fit's `--hyperopt N`). */
  readonly trials: number;
  /** The tasks of the job array, which share the scan's batches. */
  readonly tasks: number;
  /**
   * Trials trained together in one model. Default: the scan folder's own when it holds a scan
   * (so that submitting again continues it), else `DEFAULT_TRIALS_PER_MODEL` (16).
   */
  readonly trialsPerModel?: number;
  /** Replicas of every trial on every fold (default 1). */
  readonly replicas?: number;
  /** `tpe` (default) or `random`; `partonfit hyperopt` checks it. */
  readonly sampler?: string;
  /** More `partonfit hyperopt` options for every task, e.g. `['--backend', 'native']`. */
  readonly hyperoptOptions?: readonly string[];
  /** Write nothing and submit nothing: return the script. */
  readonly dryRun?: boolean;
}

/** What {@link submitScan} did. */
export interface SubmittedScan {
  readonly scanFolder: string;
  /** The tasks of the job array. */
  readonly tasks: number;
  /** The batches of trials the tasks share: ⌈trials / trials per model⌉. */
  readonly batches: number;
  /** The job array's script, and where it was written (not on a dry run). */
  readonly script: { readonly file: string; readonly text: string };
  /** The SLURM job id of the array; undefined on a dry run. */
  readonly job: string | undefined;
}

/**
 * Refuses a scan folder whose scan the tasks could not join (`partonfit hyperopt --join` would
 * refuse it on every node): another runcard's, or the same scan with other trials per model,
 * replicas or sampler. Without `hyperopt/scan.json`, a `runcard.yml` of another runcard (a fit's,
 * or a submitted scan's whose tasks have not started) is refused too.
 */
async function checkScanFolder(
  scanFolder: string,
  existing: ScanSettings | undefined,
  runcard: Runcard,
  wanted: { trialsPerModel: number; replicas: number; sampler: string },
): Promise<void> {
  const files = scanFiles(scanFolder);
  const another = 'choose another --output, or rename the runcard';
  if (existing === undefined) {
    if (!(await pathExists(files.runcard))) return;
    const { runcard: there } = await loadFitFolderRuncard(scanFolder);
    if (runcardDigest(there) === runcardDigest(runcard)) return;
    const difference = runcardDifference(there, runcard);
    throw new InputFileError({
      file: files.runcard,
      key: difference?.keyPath,
      problem: `the folder holds another runcard (${difference?.first ?? '?'} there, ${difference?.second ?? '?'} in this one): ${another}`,
    });
  }
  if (existing.runcardSha256 !== runcardDigest(runcard)) {
    throw new InputFileError({
      file: files.settings,
      key: 'runcardSha256',
      problem: `the folder holds a scan of another runcard, which the tasks could not join: ${another}`,
    });
  }
  const settings = [
    ['trials_per_model', '--trials-per-model', existing.trialsPerModel, wanted.trialsPerModel],
    ['replicas', '--replicas', existing.replicas, wanted.replicas],
    ['sampler', '--sampler', existing.sampler, wanted.sampler],
  ] as const;
  for (const [key, option, there, here] of settings) {
    if (there === here) continue;
    throw new InputFileError({
      file: files.settings,
      key,
      problem: `the scan in the folder has ${option} ${there}, this submission ${here}: submit with ${option} ${there} to continue it, or choose another --output`,
    });
  }
  if (existing.oneFoldPerModel) {
    throw new InputFileError({
      file: files.settings,
      key: 'one_fold_per_model',
      problem:
        'the scan in the folder trains one fold per model (--one-fold-per-model), which submitted tasks do not: choose another --output',
    });
  }
}

/**
 * Submits a hyperparameter scan as one SLURM job array of `tasks` tasks. Every task runs
 * `partonfit hyperopt <runcard> --trials N --trials-per-model B --replicas R --sampler S --output
 * <output> --join` on the same scan folder `<output>/<runcard name>/`: each claims the next batch
 * of trials no task has claimed or finished, trains it, writes its trials, and goes on, the TPE
 * of each reading every finished trial. The runcard is copied to `<scan>/runcard.yml`, the
 * script written to `<scan>/slurm/scan-array.sbatch`, the submission (job id, tasks, settings)
 * added to `<scan>/slurm/scan-tasks.json`; the tasks' logs go to `<scan>/slurm/task_<job>_<i>.log`.
 * There is no postfit job: a scan's result is its trials (`hyperopt/tries.json`).
 *
 * Submitting again to the same folder adds tasks to the same scan (a larger `trials` extends it).
 * A folder whose scan the tasks could not join is refused before anything is submitted.
 *
 * @throws InvalidArgumentError for a `trials`, `tasks`, `trialsPerModel` or `replicas` that is
 *   not a positive integer (naming `--hyperopt`, `--tasks`, …); RuncardError naming `kfold` or
 *   `hyperscan_config` for a runcard without them; InputFileError when the scan folder holds
 *   another runcard or a scan of other settings; SchedulerError when `sbatch` is missing or
 *   refuses the job
 */
export async function submitScan(request: ScanSubmitRequest): Promise<SubmittedScan> {
  const trials = positiveInteger(request.trials, '--hyperopt');
  const tasks = positiveInteger(request.tasks, '--tasks');
  const replicas = positiveInteger(request.replicas ?? 1, '--replicas');
  const sampler = request.sampler ?? 'tpe';
  const issues = scanRequirements(request.runcard, replicas);
  if (issues.length > 0) throw new RuncardError({ file: request.runcardFile, issues });
  const scan = basename(request.runcardFile, extname(request.runcardFile));
  const scanFolder = join(request.outputFolder, scan);
  const existing = await readScanSettings(scanFolder);
  const trialsPerModel = positiveInteger(
    request.trialsPerModel ?? existing?.trialsPerModel ?? DEFAULT_TRIALS_PER_MODEL,
    '--trials-per-model',
  );
  await checkScanFolder(scanFolder, existing, request.runcard, {
    trialsPerModel,
    replicas,
    sampler,
  });
  const settings: ScanScriptSettings = {
    ...request,
    scan,
    scanFolder,
    tasks,
    trials,
    trialsPerModel,
    replicas,
    sampler,
  };
  const script = {
    file: join(slurmFolder(scanFolder), 'scan-array.sbatch'),
    text: scanJobScript(settings),
  };
  const batches = Math.ceil(trials / trialsPerModel);
  if (request.dryRun === true) return { scanFolder, tasks, batches, script, job: undefined };
  await mkdir(slurmFolder(scanFolder), { recursive: true });
  await writeFileAtomic(scanFiles(scanFolder).runcard, await readFile(request.runcardFile));
  await writeFileAtomic(script.file, script.text);
  const job = jobId(await runSlurmCommand('sbatch', ['--parsable', script.file]));
  await recordScanSubmission(scanFolder, {
    runcardFile: request.runcardFile,
    outputFolder: request.outputFolder,
    trials,
    trialsPerModel,
    replicas,
    sampler,
    tasks,
    hyperoptOptions: request.hyperoptOptions ?? [],
    jobs: { array: job },
    submitted: new Date().toISOString(),
  });
  return { scanFolder, tasks, batches, script, job };
}
