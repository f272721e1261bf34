import type { FitInputs } from '@partonfit/fktables';
import { writeCheckpoint } from '../checkpoint/checkpoint-file.js';
import type { RunFingerprint } from '../checkpoint/run-fingerprint.js';
import { CHECKPOINT_EVERY, type TrainingHistoryEntry } from '../checkpoint/training-checkpoint.js';
import type { StoppingSnapshot } from '../stopping/replica-stopping.js';
import { replicaFitEnds } from './replica-fit-ends.js';
import { TrainingInterruptedError } from './training-interrupted-error.js';
import { TrainingSteps } from './training-step.js';
import { captureCheckpoint, type TrainingLoopState, type TrainingParts } from './training-state.js';
import type { TrainingOptions } from './train-replicas.js';

/** Where the training loop stands: epochs done, history, stopping state, time. */
export interface LoopResult {
  readonly epochsRun: number;
  readonly snapshot: StoppingSnapshot;
  readonly history: TrainingHistoryEntry[];
  readonly seconds: number;
  /**
   * The rows whose fit had ended when the loop stopped to retire them (`retire`), or undefined
   * when the loop ran to its end.
   */
  readonly ended: readonly number[] | undefined;
}

/** How the loop runs: read-backs, checkpoints, progress, and when it started. */
export interface LoopSettings {
  readonly epochs: number;
  readonly fingerprint: RunFingerprint;
  readonly logEvery: number;
  readonly checkpoint: { readonly file: string; readonly every: number } | undefined;
  readonly onProgress: TrainingOptions['onProgress'];
  readonly signal: AbortSignal | undefined;
  /** `performance.now()` at the start of this run. */
  readonly start: number;
  /** Stop at the first read-back where some replicas' fits have ended and others go on. */
  readonly retire?: boolean;
}

/** Lets pending callbacks (signal handlers among them) run before the next step. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The training loop from epoch `loop.epoch` to the end (all epochs done or every replica
 * stopped), with read-backs every `logEvery` epochs and checkpoints at read-backs.
 */
export async function runEpochs(
  parts: TrainingParts,
  inputs: FitInputs,
  settings: LoopSettings,
  loop: TrainingLoopState,
): Promise<LoopResult> {
  const { checkpoint, onProgress, epochs, fingerprint, signal } = settings;
  const every = checkpoint?.every ?? CHECKPOINT_EVERY;
  const seconds = () => loop.seconds + (performance.now() - settings.start) / 1000;
  const steps = new TrainingSteps(parts, inputs.trainingCounts, {
    logEvery: settings.logEvery,
    epochs,
    replicaEpochs: parts.model.methodology.epochs,
  });
  const history = [...loop.history];
  let nextCheckpoint = (Math.floor(loop.epoch / every) + 1) * every;
  let epochsRun = loop.epoch;
  let snapshot = await parts.stopping.snapshot();
  let ended: number[] | undefined;
  const interrupt = async (): Promise<never> => {
    if (checkpoint !== undefined) {
      const state = { epoch: epochsRun, seconds: seconds(), history };
      await writeCheckpoint(checkpoint.file, await captureCheckpoint(parts, fingerprint, state));
    }
    throw new TrainingInterruptedError({
      epoch: epochsRun,
      checkpointFile: checkpoint?.file,
      reason: String(signal?.reason ?? 'aborted'),
    });
  };
  try {
    const { epochs: replicaEpochs } = parts.model.methodology;
    const endedRows = () =>
      Array.from(replicaFitEnds(snapshot.stopEpoch, replicaEpochs, settings.logEvery)).flatMap(
        (end, row) => (end <= epochsRun ? [row] : []),
      );
    const over = () => endedRows().length === replicaEpochs.length;
    for (let epoch = loop.epoch; epoch < epochs && !over() && ended === undefined; epoch++) {
      if (signal !== undefined) {
        await yieldToEventLoop();
        if (signal.aborted) await interrupt();
      }
      steps.step(epoch);
      epochsRun = epoch + 1;
      if (!steps.endsInterval(epoch)) continue;
      const readBack = await steps.readBack();
      snapshot = readBack.stopping;
      const training = readBack.trainingChi2PerPoint;
      const validation = readBack.validationChi2PerPoint;
      history.push({ epoch: epochsRun, training, validation });
      const finished = epochsRun === epochs || over();
      if (checkpoint !== undefined && (epochsRun >= nextCheckpoint || finished)) {
        const state = { epoch: epochsRun, seconds: seconds(), history };
        await writeCheckpoint(checkpoint.file, await captureCheckpoint(parts, fingerprint, state));
        nextCheckpoint = (Math.floor(epochsRun / every) + 1) * every;
      }
      onProgress?.({
        epoch: epochsRun,
        epochs,
        training: snapshot.stopEpoch.filter(
          (stop, r) => stop < 0 && epochsRun < (replicaEpochs[r] ?? epochs),
        ).length,
        trainingChi2PerPoint: training,
        validationChi2PerPoint: validation,
        stopping: snapshot,
      });
      const rows = endedRows();
      if (settings.retire === true && rows.length > 0 && !finished) ended = rows;
    }
  } finally {
    steps.dispose();
  }
  return { epochsRun, snapshot, history, seconds: seconds(), ended };
}
