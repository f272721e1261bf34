import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatReplicaSelection, InputFileError } from '@partonfit/core';
import { writeFileAtomic } from '@partonfit/io';

/**
 * How well the replicas describe the data and, in a closure test, the truth — computed over the
 * replicas that passed (those postfit would keep).
 *
 * Every χ² here is with the fit's own covariance, that of its training χ²: C the t0 covariance
 * when the runcard names a `datacuts.t0pdfset` (multiplicative uncertainties relative to the t0
 * PDF's predictions), the experimental covariance otherwise, divided by the dataset weights
 * (`fitCovarianceName` says which from the runcard), plus the theory covariance S when
 * `theorycovmatconfig.use_thcovmat_in_fitting` puts it in the fit's χ².
 */
export interface FitQuality {
  /** χ²/n of the replica average's predictions against the central data, with C (+ S). */
  readonly averageChi2PerPoint: number;
  /**
   * Per dataset d: the χ²/n of the replica average on the dataset alone, with the dataset's own
   * block of the covariance, r_dᵀ (C_dd + S_dd)⁻¹ r_d / n_d (without S_dd when S is not in the
   * fit's χ²) — validphys's χ² of a dataset (times its runcard `weight`, by which the fit's
   * covariance is divided), also where a systematic or S correlates it with other datasets.
   */
  readonly datasetChi2PerPoint: Readonly<Record<string, number>>;
  /**
   * Closure tests only: bias / variance in data space (NNPDF4.0's estimator), with C (+ S):
   * bias = (T̄ − T_true)ᵀ C⁻¹ (T̄ − T_true) and variance = mean_r (T_r − T̄)ᵀ C⁻¹ (T_r − T̄).
   * Near 1 for a faithful fit.
   */
  readonly biasVarianceRatio: number | undefined;
  /**
   * When the fit's χ² includes a theory covariance S: `averageChi2PerPoint` is with C + S, this
   * with C alone — the fit's t0 covariance (or experimental one without a t0 set) with the
   * dataset weights, not necessarily the experimental covariance.
   */
  readonly averageChi2PerPointWithoutTheory?: number;
}

/** How a fit used a theory covariance (`theorycovmatconfig`). */
export interface FitTheoryCovarianceUse {
  /** The scale-variation prescriptions summed into S. */
  readonly prescriptions: readonly string[];
  /** The user's covariance file added to S, if any. */
  readonly userCovariance: string | undefined;
  /** The factor the user's covariance was multiplied by (`mult_factor`), when not 1. */
  readonly userCovarianceFactor?: number;
  /** Whether C + S was the covariance of the χ² (training, validation, stopping, quality). */
  readonly inFitting: boolean;
  /** Whether the pseudodata were sampled from C + S. */
  readonly inSampling: boolean;
  /** S in validphys's table layout, relative to the fit folder. */
  readonly table: string;
}

/** A replica that diverged during the fit. */
export interface DivergedReplica {
  readonly replica: number;
  /** The epoch at which its training or validation loss stopped being finite. */
  readonly epoch: number;
  /** The best epoch whose weights it keeps, or null when it had none (no PDF written). */
  readonly bestEpoch: number | null;
}

/**
 * What one `partonfit fit` process reports of the replicas it trained, written to
 * `summaries/replicas_<selection>.json`; `summary.json` merges those of every process that
 * filled the fit folder.
 */
export interface FitSummary {
  readonly fit: string;
  readonly folder: string;
  readonly replicas: readonly number[];
  readonly backend: string;
  readonly epochsRun: number;
  /** Replicas with a best epoch (POS_PASS), and without (POS_VETO). */
  readonly passed: readonly number[];
  readonly vetoed: readonly number[];
  /**
   * Replicas whose loss stopped being finite: the epoch, and the best epoch whose weights were
   * written (null when it had none: its folder holds its JSON and log but no PDF).
   */
  readonly diverged: readonly DivergedReplica[];
  /**
   * Per replica (in `replicas` order): χ²/n against the central data, at the best epoch, with
   * the fit's covariance (see {@link FitQuality}).
   */
  readonly experimentalChi2: readonly number[];
  /**
   * Over the replicas that passed (or, if none did, every replica that did not diverge);
   * undefined when every replica diverged, and in a merged summary of several processes (each
   * process's own is in its `summaries/` file).
   */
  readonly quality: FitQuality | undefined;
  /** With `theorycovmatconfig`: how the theory covariance entered the fit. */
  readonly theoryCovariance?: FitTheoryCovarianceUse;
  readonly seconds: {
    readonly setup: number;
    readonly training: number;
    readonly msPerStep: number;
  };
}

/** `<fit>/summaries`: one summary per fit process. */
const SUMMARIES = 'summaries';

/** `<fit>/summaries/replicas_<selection>.json`, the summary of the process fitting `replicas`. */
export function fitSummaryFile(fitFolder: string, replicas: readonly number[]): string {
  return join(fitFolder, SUMMARIES, `replicas_${formatReplicaSelection(replicas)}.json`);
}

function summaryText(summary: FitSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}

const byReplica = <T extends { replica: number }>(a: T, b: T) => a.replica - b.replica;
const ascending = (a: number, b: number) => a - b;

/**
 * One summary of every process's: the union of their replicas (each replica taken from the
 * process that fitted it last, by file order), epochs the largest, seconds summed, `quality`
 * that of a single process and undefined for several (the replica average of the whole fit is
 * postfit's and `partonfit predict`'s to compute).
 */
export function mergeFitSummaries(summaries: readonly FitSummary[]): FitSummary {
  const [first] = summaries;
  if (summaries.length === 1) return first;
  const chi2 = new Map<number, number>();
  const outcome = new Map<number, 'passed' | 'vetoed' | DivergedReplica>();
  for (const summary of summaries) {
    summary.replicas.forEach((replica, r) => chi2.set(replica, summary.experimentalChi2[r]));
    for (const replica of summary.passed) outcome.set(replica, 'passed');
    for (const replica of summary.vetoed) outcome.set(replica, 'vetoed');
    for (const diverged of summary.diverged) outcome.set(diverged.replica, diverged);
  }
  const replicas = [...chi2.keys()].sort(ascending);
  const sum = (value: (summary: FitSummary) => number) =>
    summaries.reduce((total, summary) => total + value(summary), 0);
  const training = sum((summary) => summary.seconds.training);
  const steps = sum((summary) => summary.epochsRun);
  return {
    fit: first.fit,
    folder: first.folder,
    replicas,
    backend: [...new Set(summaries.map((summary) => summary.backend))].join(', '),
    epochsRun: Math.max(...summaries.map((summary) => summary.epochsRun)),
    passed: replicas.filter((replica) => outcome.get(replica) === 'passed'),
    vetoed: replicas.filter((replica) => outcome.get(replica) === 'vetoed'),
    diverged: [...outcome.values()]
      .filter((entry): entry is DivergedReplica => typeof entry === 'object')
      .sort(byReplica),
    experimentalChi2: replicas.map((replica) => chi2.get(replica) ?? Number.NaN),
    quality: undefined,
    seconds: {
      setup: sum((summary) => summary.seconds.setup),
      training,
      msPerStep: steps === 0 ? 0 : (1000 * training) / steps,
    },
  };
}

/**
 * Rebuilds `<fit>/summary.json` from every process's `summaries/replicas_<selection>.json`
 * ({@link mergeFitSummaries}), atomically: processes that fill one fit folder (SLURM tasks,
 * separate `--replicas` runs) never lose each other's replicas, and postfit rebuilds it once
 * they are all done.
 *
 * @returns the merged summary, or undefined when the folder has no process summary
 * @throws InputFileError naming a process summary that is not valid JSON
 */
export async function rebuildFitSummary(fitFolder: string): Promise<FitSummary | undefined> {
  const folder = join(fitFolder, SUMMARIES);
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => /^replicas_.*\.json$/.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (names.length === 0) return undefined;
  const summaries: FitSummary[] = [];
  for (const name of names) {
    const file = join(folder, name);
    try {
      summaries.push(JSON.parse(await readFile(file, 'utf8')) as FitSummary);
    } catch (cause) {
      throw new InputFileError({ file, problem: `not a fit summary (${String(cause)})`, cause });
    }
  }
  const merged = mergeFitSummaries(summaries);
  await writeFileAtomic(join(fitFolder, 'summary.json'), summaryText(merged));
  return merged;
}

/**
 * Writes one process's summary to `summaries/replicas_<selection>.json` and rebuilds
 * `summary.json` from all of them ({@link rebuildFitSummary}).
 *
 * @returns the merged summary of the fit folder
 */
export async function writeFitSummary(fitFolder: string, summary: FitSummary): Promise<FitSummary> {
  const file = fitSummaryFile(fitFolder, summary.replicas);
  await mkdir(join(fitFolder, SUMMARIES), { recursive: true });
  await writeFileAtomic(file, summaryText(summary));
  return (await rebuildFitSummary(fitFolder)) ?? summary;
}
