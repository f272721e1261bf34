import { InputFileError, PartonfitError } from '@partonfit/core';

const marker = 'partonfit.error.CheckpointMismatchError';
const markerSymbol = Symbol.for(marker);

/**
 * A checkpoint written by another fit (another runcard or another set of replicas) or in another
 * format: resuming from it would not continue this fit. An {@link InputFileError} naming the
 * checkpoint file and the attribute that differs (`format`, `runcard_sha256`, `replicas`).
 */
export class CheckpointMismatchError extends InputFileError {
  readonly [markerSymbol] = true;
  /** This fit's value of the attribute. */
  readonly expected: string;
  /** The checkpoint's value. */
  readonly found: string;

  constructor(options: { file: string; key: string; expected: string; found: string }) {
    super({
      file: options.file,
      key: options.key,
      problem: `the checkpoint belongs to another fit (it has ${options.found}, this fit has ${options.expected}); start the fit without resuming, or resume it with its own runcard and replicas`,
    });
    this.name = 'CheckpointMismatchError';
    this.expected = options.expected;
    this.found = options.found;
  }

  static override isInstance(error: unknown): error is CheckpointMismatchError {
    return PartonfitError.hasMarker(error, marker);
  }
}
