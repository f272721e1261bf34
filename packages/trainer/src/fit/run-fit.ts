import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, extname, relative, resolve } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import {
  createMatrix,
  InputFileError,
  InvalidArgumentError,
  type RankedTrial,
  type Runcard,
} from '@partonfit/core';
import { TFJS_VERSION } from '@partonfit/backend';
import {
  closureTruth,
  formatCovarianceTable,
  inputPaths,
  prepareFitInputs,
  type FitInputs,
  type FitTheoryCovariance,
} from '@partonfit/fktables';
import { ensureWritableFolder, removeStaleTemporaries, writeFileAtomic } from '@partonfit/io';
import { readCheckpoint } from '../checkpoint/checkpoint-file.js';
import { runFingerprint, withInputsDigest } from '../checkpoint/run-fingerprint.js';
import { CHECKPOINT_EVERY, type TrainingCheckpoint } from '../checkpoint/training-checkpoint.js';
import { sliceReplicas } from '../export/extract-replica.js';
import type { ReplicaParameters } from '../export/replica-parameters.js';
import { replicaPdfRecords } from '../export/replica-records.js';
import { readStartingWeights } from '../export/starting-weights.js';
import { writeReplicaWeights } from '../export/replica-weights-file.js';
import {
  checkFitFolderRuncard,
  checkpointFile,
  chi2ExpsLogText,
  clearFitFolder,
  fitFolderPaths,
  keepFitHyperscan,
  writeFitSummary,
  writeReplicaOutputs,
  type FitFolderPaths,
  type FitSummary,
  type FitTheoryCovarianceUse,
} from '@partonfit/fit-folder';
import { replicaHyperparameters } from '../export/replica-hyperparameters.js';
import { replicaTrainingOrder } from '../methodology/replica-methodology.js';
import { replicaReadBacks } from '../training/replica-fit-ends.js';
import {
  trainReplicas,
  type TrainingProgress,
  type TrainingResult,
} from '../training/train-replicas.js';
import { fitQuality, replicaPredictions } from './closure-metrics.js';

/** What `partonfit fit` needs. */
export interface FitRequest {
  readonly runcard: Runcard;
  readonly runcardFile: string;
  /**
   * With `trial_specs`: the scan's `tries.json` and the trial of each entry of
   * `runcard.parameters_per_replica`, as `loadRuncard` read them (`ValidatedRuncard.hyperscan`).
   * The file is copied into the fit folder, and each replica's JSON names its trial.
   */
  readonly hyperscan?:
    { readonly file: string; readonly trials: readonly RankedTrial[] } | undefined;
  /** The replicas, 1-based. */
  readonly replicas: readonly number[];
  /** The folder that receives the fit folder `<output>/<runcard name>/`. */
  readonly outputFolder: string;
  /** The backend that runs it (for the records). */
  readonly backend: string;
  /** partonfit's version (for the records). */
  readonly version: string;
  /** Lines describing the set-up. */
  readonly report?: (message: string) => void;
  /** Called at every read-back of the training. */
  readonly onProgress?: (progress: TrainingProgress) => void;
  /** Epochs between two checkpoints `<fit>/checkpoint_replicas_<selection>.h5` (default 1000). */
  readonly checkpointEvery?: number;
  /**
   * Continue from `<fit>/checkpoint_replicas_<selection>.h5` instead of starting afresh; the fit folder comes out as
   * an uninterrupted run's would.
   */
  readonly resume?: boolean;
  /**
   * Delete an earlier fit of another runcard in the fit folder (see `clearFitFolder`) once the
   * inputs are prepared, instead of refusing to mix the two. Not with `resume`.
   */
  readonly overwrite?: boolean;
  /**
   * Stops the fit when aborted (e.g. on SIGTERM or SIGINT): the checkpoint is written at once and
   * a TrainingInterruptedError thrown; `resume` continues it. Heard before every training step
   * (the first included), not while the inputs are prepared or the fit folder is written.
   */
  readonly signal?: AbortSignal;
}

/** The predictions `(rows, data)` of the given replica rows, from those of every replica. */
function selectedRows(
  predictions: Float64Array,
  ndata: number,
  rows: readonly number[],
): Float64Array {
  const kept = new Float64Array(rows.length * ndata);
  rows.forEach((row, k) => {
    kept.set(predictions.subarray(row * ndata, (row + 1) * ndata), k * ndata);
  });
  return kept;
}

/** The arc lengths or integrability numbers of a replica without a PDF: unknown (null in JSON). */
const NO_QUALITY_NUMBERS = Array.from({ length: 5 }, () => Number.NaN);

/** How one replica's training ended, as the fit folder records it. */
interface ReplicaOutcome {
  /** It has a best epoch and did not diverge: `POS_PASS`, a candidate for postfit. */
  readonly passed: boolean;
  /** The epoch at which it diverged, undefined if it did not. */
  readonly divergedEpoch: number | undefined;
  /**
   * It has a PDF to write: finite weights that are its own final or, for a replica that diverged
   * after a best epoch, its best ones.
   */
  readonly hasPdf: boolean;
}

function finiteParameters(parameters: ReplicaParameters): boolean {
  const arrays = [parameters.normalisation, ...[...parameters.weights.values()].map((w) => w.data)];
  return arrays.every((values) => values.every(Number.isFinite));
}

/**
 * How replica row `r` ended: a replica whose loss stopped being finite diverged at that epoch
 * and keeps its best weights if it had a best epoch, else it has no PDF to write; a replica
 * whose weights are not finite however it ended counts as diverged at the last epoch.
 */
function replicaOutcome(
  result: TrainingResult,
  parameters: ReplicaParameters,
  r: number,
): ReplicaOutcome {
  const { failed, stopEpoch, bestEpoch } = result.stopping;
  const finite = finiteParameters(parameters);
  const divergedEpoch =
    failed[r] !== 0 ? stopEpoch[r] : finite ? undefined : Math.max(result.epochsRun - 1, 0);
  return {
    passed: divergedEpoch === undefined && bestEpoch[r] >= 0,
    divergedEpoch,
    hasPdf: finite && (divergedEpoch === undefined || bestEpoch[r] >= 0),
  };
}

/** The truth's predictions in a closure test, else undefined. */
async function truthPredictions(request: FitRequest, inputs: FitInputs, result: TrainingResult) {
  const closure = request.runcard.closuretest;
  if (closure?.fakedata !== true || closure.fakepdf === undefined) return undefined;
  const truth = await closureTruth(
    closure.fakepdf,
    inputPaths(request.runcard, request.runcardFile),
    inputs.q0,
  );
  const pdf = tf.tensor3d(Array.from(truth.xf(inputs.xGrid)), [1, inputs.xGrid.length, 14]);
  try {
    return await replicaPredictions(result.objective, pdf);
  } finally {
    pdf.dispose();
  }
}

/**
 * Refuses to resume from a checkpoint that does not exist, naming the checkpoints of other
 * replica selections the fit folder holds.
 *
 * @throws InputFileError naming the missing checkpoint
 */
async function refuseMissingCheckpoint(file: string): Promise<void> {
  if (existsSync(file)) return;
  const others = existsSync(dirname(file))
    ? (await readdir(dirname(file))).filter((name) => /^checkpoint_replicas_.*\.h5$/.test(name))
    : [];
  throw new InputFileError({
    file,
    problem:
      'no checkpoint to resume from (the file does not exist); ' +
      (others.length === 0
        ? 'start the fit without resuming'
        : `the fit folder has checkpoints of other replicas (${others.join(', ')}): resume with those replicas, or start without resuming`),
  });
}

/** Writes the fit's theory covariance table into the fit folder; says how the fit used S. */
async function writeTheoryCovariance(
  paths: FitFolderPaths,
  theory: FitTheoryCovariance,
): Promise<FitTheoryCovarianceUse> {
  const size = theory.points.length;
  await mkdir(dirname(paths.theoryCovariance), { recursive: true });
  await writeFileAtomic(
    paths.theoryCovariance,
    formatCovarianceTable({
      points: theory.points,
      covariance: createMatrix(size, size, theory.covariance),
    }),
  );
  return {
    prescriptions: theory.prescriptions,
    userCovariance: theory.userCovariance,
    ...(theory.userCovarianceFactor === 1
      ? {}
      : { userCovarianceFactor: theory.userCovarianceFactor }),
    inFitting: theory.inFitting,
    inSampling: theory.inSampling,
    table: relative(paths.fitFolder, paths.theoryCovariance),
  };
}

/**
 * Runs a whole fit: prepares the inputs, trains every replica together, and writes the fit
 * folder — `runcard.yml`, per replica `nnfit/replica_<r>/<fit>.exportgrid`, `<fit>.json`,
 * `weights.h5` and `chi2exps.log`, and `summary.json` — every file atomically. Each replica's
 * PDF outputs come from its single-replica model (`sliceReplicas`, `replicaPdfRecords`), the
 * same path `partonfit export` takes from `weights.h5`. While training, the whole state
 * is saved to `<fit>/checkpoint_replicas_<selection>.h5` every `checkpointEvery` epochs; with `resume` the fit
 * continues from there.
 *
 * The fit folder must be free or hold this runcard's fit (other replicas, or a rerun): a folder
 * of another runcard is refused before any work, unless `overwrite` deletes that fit. The
 * runcard is copied into the folder before training, and temporaries a killed checkpoint write
 * left are removed.
 *
 * Replicas whose loss stops being finite do not stop the others: each is frozen at its best
 * weights (or has none), recorded with `diverged_epoch` in its JSON and listed in
 * `summary.json`'s `diverged`; postfit never keeps it.
 *
 * @throws InputFileError naming the checkpoint when resuming without one (before any set-up
 *   work), or the fit folder's `runcard.yml` when it holds another runcard's fit;
 *   CheckpointMismatchError when the checkpoint belongs to another runcard or other replicas;
 *   InvalidArgumentError for `overwrite` with `resume`, or `trial_specs` without `hyperscan`;
 *   FileSystemError when the fit folder cannot be created or written in (checked before any
 *   work)
 */
export async function runFit(request: FitRequest): Promise<FitSummary> {
  const { runcard, runcardFile, replicas, outputFolder } = request;
  const fitName = basename(runcardFile, extname(runcardFile));
  const paths = fitFolderPaths(outputFolder, fitName, replicas[0] ?? 1);
  const checkpoint = {
    file: checkpointFile(paths.fitFolder, replicas),
    every: request.checkpointEvery ?? CHECKPOINT_EVERY,
  };
  if (runcard.trial_specs !== undefined && request.hyperscan === undefined) {
    throw new InvalidArgumentError({
      argument: 'hyperscan',
      problem:
        "a runcard with trial_specs needs the scan's trials it was read with (loadRuncard's hyperscan), which the fit folder keeps",
    });
  }
  if (request.overwrite === true && request.resume === true) {
    throw new InvalidArgumentError({
      argument: 'overwrite',
      problem:
        'overwriting deletes the checkpoint that resuming continues from: use one or the other',
    });
  }
  // A read-only or full file system, or a file in the way, is found before any work.
  await ensureWritableFolder(paths.fitFolder);
  if (request.overwrite !== true) await checkFitFolderRuncard(paths.fitFolder, runcard);
  // replicas of one network and optimiser in consecutive rows of the model (the given order
  // for a fit without per-replica parameters)
  const order = replicaTrainingOrder(runcard, replicas);
  const settingsFingerprint = runFingerprint(runcard, order);
  let resume: TrainingCheckpoint | false = false;
  if (request.resume === true) {
    await refuseMissingCheckpoint(checkpoint.file);
    // A missing checkpoint or another fit's is refused before the set-up work.
    resume = await readCheckpoint(checkpoint.file, settingsFingerprint);
    request.report?.(`resuming from ${checkpoint.file} at epoch ${resume.epoch}`);
  }
  // the weights to start from are read (and checked against the network) before the set-up work
  let startingWeights: ReplicaParameters[] | undefined;
  if (runcard.load !== undefined) {
    const source = resolve(dirname(runcardFile), runcard.load);
    startingWeights = await readStartingWeights(source, runcard, order);
    request.report?.(`starting the replicas from the weights in ${runcard.load} (load)`);
  }
  const { inputs, seconds: setup } = await prepareFitInputs(runcard, {
    runcardFile,
    replicas: order,
    ...(request.report === undefined ? {} : { report: request.report }),
  });
  request.report?.(`fitting ${inputs.ndata} data points with ${replicas.length} replica(s)`);
  if (request.overwrite === true) {
    const removed = await clearFitFolder(paths.fitFolder);
    if (removed.length > 0) {
      request.report?.(`deleted the earlier fit in ${paths.fitFolder}: ${removed.join(', ')}`);
    }
  }
  await mkdir(paths.fitFolder, { recursive: true });
  // The scan's trials first: a runcard.yml with trial_specs is read with the folder's copy.
  if (request.hyperscan !== undefined) {
    await keepFitHyperscan(paths.fitFolder, request.hyperscan.file);
  }
  // The folder belongs to this runcard from now on, also if the fit is killed before the end.
  await writeFileAtomic(paths.runcard, await readFile(runcardFile));
  await removeStaleTemporaries(checkpoint.file);
  const fingerprint = withInputsDigest(settingsFingerprint, inputs);
  const result = await trainReplicas(runcard, inputs, {
    checkpoint,
    resume,
    fingerprint,
    ...(startingWeights === undefined ? {} : { startingWeights }),
    ...(request.onProgress === undefined ? {} : { onProgress: request.onProgress }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  const replicaParameters = await sliceReplicas(result.model);
  const { runcardSha256 } = fingerprint;
  const fitted = result.model.forward();
  const predictions = await replicaPredictions(result.objective, fitted);
  fitted.dispose();
  const truth = await truthPredictions(request, inputs, result);
  const { stopping, chi2PerPoint } = result;
  const { methodology } = result.model;
  // per model row; rows are the replicas in training order
  const outcomes = order.map((_, r) => replicaOutcome(result, replicaParameters[r], r));
  for (const [r, replica] of order.entries()) {
    const outcome = outcomes[r];
    const pdf = outcome.hasPdf ? await replicaPdfRecords(replicaParameters[r]) : undefined;
    const stopEpoch = stopping.stopEpoch[r] >= 0 ? stopping.stopEpoch[r] : result.replicaEpochs[r];
    const bestEpoch = stopping.bestEpoch[r];
    const entry = methodology.entries[r];
    const trial = entry === undefined ? undefined : request.hyperscan?.trials[entry];
    const replicaPaths = await writeReplicaOutputs({
      outputFolder,
      fitName,
      replica,
      exportGrid: pdf === undefined ? undefined : { q0: inputs.q0, xfEvolution: pdf.xfEvolution },
      summary: {
        preprocessing: pdf?.preprocessing ?? [],
        stopEpoch,
        bestEpoch: bestEpoch >= 0 ? bestEpoch : Math.max(stopEpoch - 1, 0),
        trainingChi2: chi2PerPoint.training[r],
        validationChi2: chi2PerPoint.validation[r],
        experimentalChi2: chi2PerPoint.experimental[r],
        positivity: outcome.passed ? 'POS_PASS' : 'POS_VETO',
        ...(outcome.divergedEpoch === undefined ? {} : { divergedEpoch: outcome.divergedEpoch }),
        arcLengths: pdf?.arcLengths ?? NO_QUALITY_NUMBERS,
        integrability: pdf?.integrability ?? NO_QUALITY_NUMBERS,
        timing: { walltime: { Total: setup + result.seconds }, cputime: {} },
        ...(entry === undefined
          ? {}
          : {
              hyperparameters: replicaHyperparameters(methodology.parameters[r], {
                entry,
                ...(trial === undefined || request.hyperscan === undefined
                  ? {}
                  : { trial: { ranked: trial, file: request.hyperscan.file } }),
              }),
            }),
        backend: request.backend,
        version: {
          partonfit: request.version,
          '@tensorflow/tfjs-core': TFJS_VERSION,
          node: process.versions.node,
        },
        runcardSha256,
      },
    });
    if (pdf !== undefined) {
      await writeReplicaWeights(replicaPaths.weights, replicaParameters[r], {
        fit: fitName,
        replica,
        runcardSha256,
        q0: inputs.q0,
        backend: request.backend,
        version: request.version,
      });
    }
    const readBacks = replicaReadBacks(result.history, {
      epochs: methodology.epochs[r] ?? result.epochsRun,
      end: result.replicaEpochs[r] ?? result.epochsRun,
      logEvery: result.logEvery,
    });
    const entries = new Map(
      readBacks.map((readBack) => [
        readBack.epoch,
        {
          trainingLoss: readBack.training[r],
          validationLoss: readBack.validation[r],
          validationChi2s: { total: readBack.validation[r] },
        },
      ]),
    );
    await writeFileAtomic(replicaPaths.chi2ExpsLog, chi2ExpsLogText(entries));
  }
  // the summary lists the replicas in the order asked for
  const rows = replicas.map((replica) => order.indexOf(replica));
  const passedRows = rows.filter((r) => outcomes[r].passed);
  const finiteRows = rows.filter((r) => outcomes[r].divergedEpoch === undefined);
  const qualityRows = passedRows.length > 0 ? passedRows : finiteRows;
  const summary: FitSummary = {
    fit: fitName,
    folder: paths.fitFolder,
    replicas,
    backend: request.backend,
    epochsRun: result.epochsRun,
    passed: passedRows.map((r) => order[r]),
    vetoed: rows
      .filter((r) => !outcomes[r].passed && outcomes[r].divergedEpoch === undefined)
      .map((r) => order[r]),
    diverged: rows.flatMap((r) => {
      const { divergedEpoch, hasPdf } = outcomes[r];
      return divergedEpoch === undefined
        ? []
        : [
            {
              replica: order[r],
              epoch: divergedEpoch,
              bestEpoch: hasPdf ? stopping.bestEpoch[r] : null,
            },
          ];
    }),
    experimentalChi2: rows.map((r) => chi2PerPoint.experimental[r]),
    quality:
      qualityRows.length === 0
        ? undefined
        : fitQuality(inputs, selectedRows(predictions, inputs.ndata, qualityRows), truth),
    ...(inputs.theoryCovariance === undefined
      ? {}
      : { theoryCovariance: await writeTheoryCovariance(paths, inputs.theoryCovariance) }),
    seconds: {
      setup,
      training: result.seconds,
      msPerStep: (1000 * result.seconds) / result.epochsRun,
    },
  };
  await writeFitSummary(paths.fitFolder, summary);
  result.objective.dispose();
  result.model.dispose();
  return summary;
}
