import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { InputFileError, type Runcard } from '@partonfit/core';
import { TFJS_VERSION } from '@partonfit/backend';
import { closureTruth, inputPaths, prepareFitInputs, type FitInputs } from '@partonfit/fktables';
import { writeFileAtomic } from '@partonfit/io';
import { readCheckpoint } from '../checkpoint/checkpoint-file.js';
import { runFingerprint, withInputsDigest } from '../checkpoint/run-fingerprint.js';
import {
  CHECKPOINT_EVERY,
  checkpointFile,
  type TrainingCheckpoint,
} from '../checkpoint/training-checkpoint.js';
import { sliceReplicas } from '../export/extract-replica.js';
import { replicaPdfRecords } from '../export/replica-records.js';
import { writeReplicaWeights } from '../export/replica-weights-file.js';
import { chi2ExpsLogText, fitFolderPaths, writeReplicaOutputs } from '@partonfit/fit-folder';
import {
  trainReplicas,
  type TrainingProgress,
  type TrainingResult,
} from '../training/train-replicas.js';
import { fitQuality, replicaPredictions, type FitQuality } from './closure-metrics.js';

/** What `partonfit fit` needs. */
export interface FitRequest {
  readonly runcard: Runcard;
  readonly runcardFile: string;
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
}

/** The fit-level summary written to `summary.json` and shown at the end. */
export interface FitSummary {
  readonly fit: string;
  readonly folder: string;
  readonly replicas: readonly number[];
  readonly backend: string;
  readonly epochsRun: number;
  /** Replicas with a best epoch (POS_PASS), and without (POS_VETO). */
  readonly passed: readonly number[];
  readonly vetoed: readonly number[];
  /** Per replica: χ²/n against the central data, at the best epoch. */
  readonly experimentalChi2: readonly number[];
  readonly quality: FitQuality;
  readonly seconds: {
    readonly setup: number;
    readonly training: number;
    readonly msPerStep: number;
  };
}

/**
 * The predictions `(replicas, data)` of the replicas that passed (as postfit would keep them),
 * or of all replicas when none did.
 */
function passedPredictions(
  predictions: Float64Array,
  ndata: number,
  rows: readonly number[],
): Float64Array {
  if (rows.length === 0) return predictions;
  const kept = new Float64Array(rows.length * ndata);
  rows.forEach((row, k) => {
    kept.set(predictions.subarray(row * ndata, (row + 1) * ndata), k * ndata);
  });
  return kept;
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

/**
 * Runs a whole fit: prepares the inputs, trains every replica together, and writes the fit
 * folder — `runcard.yml`, per replica `nnfit/replica_<r>/<fit>.exportgrid`, `<fit>.json`,
 * `weights.h5` and `chi2exps.log`, and `summary.json` — every file atomically. Each replica's
 * PDF outputs come from its single-replica model (`sliceReplicas`, `replicaPdfRecords`), the
 * same path `partonfit export` takes from `weights.h5`. While training, the whole state
 * is saved to `<fit>/checkpoint_replicas_<selection>.h5` every `checkpointEvery` epochs; with `resume` the fit
 * continues from there.
 *
 * @throws InputFileError naming the checkpoint when resuming without one (before any set-up
 *   work); CheckpointMismatchError when it belongs to another runcard or other replicas
 */
export async function runFit(request: FitRequest): Promise<FitSummary> {
  const { runcard, runcardFile, replicas, outputFolder } = request;
  const fitName = basename(runcardFile, extname(runcardFile));
  const paths = fitFolderPaths(outputFolder, fitName, replicas[0] ?? 1);
  const checkpoint = {
    file: checkpointFile(paths.fitFolder, replicas),
    every: request.checkpointEvery ?? CHECKPOINT_EVERY,
  };
  const settingsFingerprint = runFingerprint(runcard, replicas);
  let resume: TrainingCheckpoint | false = false;
  if (request.resume === true) {
    await refuseMissingCheckpoint(checkpoint.file);
    // A missing checkpoint or another fit's is refused before the set-up work.
    resume = await readCheckpoint(checkpoint.file, settingsFingerprint);
    request.report?.(`resuming from ${checkpoint.file} at epoch ${resume.epoch}`);
  }
  const { inputs, seconds: setup } = await prepareFitInputs(runcard, {
    runcardFile,
    replicas,
    ...(request.report === undefined ? {} : { report: request.report }),
  });
  request.report?.(`fitting ${inputs.ndata} data points with ${replicas.length} replica(s)`);
  await mkdir(paths.fitFolder, { recursive: true });
  const fingerprint = withInputsDigest(settingsFingerprint, inputs);
  const result = await trainReplicas(runcard, inputs, {
    checkpoint,
    resume,
    fingerprint,
    ...(request.onProgress === undefined ? {} : { onProgress: request.onProgress }),
  });
  const replicaParameters = await sliceReplicas(result.model);
  const { runcardSha256 } = fingerprint;
  const fitted = result.model.forward();
  const predictions = await replicaPredictions(result.objective, fitted);
  fitted.dispose();
  const truth = await truthPredictions(request, inputs, result);
  await copyFile(runcardFile, paths.runcard);
  const { stopping, chi2PerPoint } = result;
  for (const [r, replica] of replicas.entries()) {
    const pdf = await replicaPdfRecords(replicaParameters[r]);
    const bestEpoch = stopping.bestEpoch[r];
    const replicaPaths = await writeReplicaOutputs({
      outputFolder,
      fitName,
      replica,
      exportGrid: { q0: inputs.q0, xfEvolution: pdf.xfEvolution },
      summary: {
        preprocessing: pdf.preprocessing,
        stopEpoch: stopping.stopEpoch[r] >= 0 ? stopping.stopEpoch[r] : result.epochsRun,
        bestEpoch: bestEpoch >= 0 ? bestEpoch : result.epochsRun - 1,
        trainingChi2: chi2PerPoint.training[r],
        validationChi2: chi2PerPoint.validation[r],
        experimentalChi2: chi2PerPoint.experimental[r],
        positivity: bestEpoch >= 0 && stopping.failed[r] === 0 ? 'POS_PASS' : 'POS_VETO',
        arcLengths: pdf.arcLengths,
        integrability: pdf.integrability,
        timing: { walltime: { Total: setup + result.seconds }, cputime: {} },
        backend: request.backend,
        version: {
          partonfit: request.version,
          '@tensorflow/tfjs-core': TFJS_VERSION,
          node: process.versions.node,
        },
      },
    });
    await writeReplicaWeights(replicaPaths.weights, replicaParameters[r], {
      fit: fitName,
      replica,
      runcardSha256,
      q0: inputs.q0,
      backend: request.backend,
      version: request.version,
    });
    const entries = new Map(
      result.history.map((entry) => [
        entry.epoch,
        {
          trainingLoss: entry.training[r],
          validationLoss: entry.validation[r],
          validationChi2s: { total: entry.validation[r] },
        },
      ]),
    );
    await writeFileAtomic(replicaPaths.chi2ExpsLog, chi2ExpsLogText(entries));
  }
  const passedRows = replicas.flatMap((_, r) =>
    stopping.bestEpoch[r] >= 0 && stopping.failed[r] === 0 ? [r] : [],
  );
  const summary: FitSummary = {
    fit: fitName,
    folder: paths.fitFolder,
    replicas,
    backend: request.backend,
    epochsRun: result.epochsRun,
    passed: passedRows.map((r) => replicas[r]),
    vetoed: replicas.filter((_, r) => stopping.bestEpoch[r] < 0 || stopping.failed[r] !== 0),
    experimentalChi2: Array.from(chi2PerPoint.experimental),
    quality: fitQuality(inputs, passedPredictions(predictions, inputs.ndata, passedRows), truth),
    seconds: {
      setup,
      training: result.seconds,
      msPerStep: (1000 * result.seconds) / result.epochsRun,
    },
  };
  await writeFileAtomic(paths.summary, `${JSON.stringify(summary, null, 2)}\n`);
  result.objective.dispose();
  result.model.dispose();
  return summary;
}
