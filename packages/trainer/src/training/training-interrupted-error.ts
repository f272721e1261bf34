import { PartonfitError } from '@partonfit/core';

const marker = 'partonfit.error.TrainingInterruptedError';
const markerSymbol = Symbol.for(marker);

/**
 * The training stopped because it was asked to (its `signal` was aborted: SIGTERM from a batch
 * scheduler's preemption or time limit, SIGINT from Ctrl-C), after writing its checkpoint when it
 * had one: resuming continues from `epoch` and ends exactly as an uninterrupted fit.
 */
export class TrainingInterruptedError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** Epochs done when the training stopped. */
  readonly epoch: number;
  /** The checkpoint written at `epoch`, or undefined when the fit wrote none. */
  readonly checkpointFile: string | undefined;
  /** Why, e.g. `SIGTERM` (the signal's `reason`). */
  readonly reason: string;

  constructor(options: { epoch: number; checkpointFile: string | undefined; reason: string }) {
    super({
      message: `training interrupted (${options.reason}) after ${options.epoch} epochs; ${
        options.checkpointFile === undefined
          ? 'no checkpoint was written'
          : `checkpoint written to ${options.checkpointFile}: continue with --resume`
      }`,
    });
    this.name = 'TrainingInterruptedError';
    this.epoch = options.epoch;
    this.checkpointFile = options.checkpointFile;
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is TrainingInterruptedError {
    return PartonfitError.hasMarker(error, marker);
  }
}
