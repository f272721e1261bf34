import { PartonfitError } from '@partonfit/core';

const marker = 'partonfit.error.SchedulerError';
const markerSymbol = Symbol.for(marker);

/**
 * A SLURM command (`sbatch`, `squeue`, `scontrol`) that could not be run or refused the request:
 * names the command and what it said.
 */
export class SchedulerError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** The command line, e.g. `sbatch --parsable fit-array.sbatch`. */
  readonly command: string;

  constructor(options: { command: string; problem: string; cause?: unknown }) {
    super({ message: `${options.command}: ${options.problem}`, cause: options.cause });
    this.name = 'SchedulerError';
    this.command = options.command;
  }

  static override isInstance(error: unknown): error is SchedulerError {
    return PartonfitError.hasMarker(error, marker);
  }
}
