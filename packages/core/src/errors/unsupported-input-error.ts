import { InputFileError } from './input-file-error.js';

const marker = 'partonfit.error.UnsupportedInputError';
const markerSymbol = Symbol.for(marker);

/**
 * An input file that is valid but uses something partonfit does not read: a newer file-format
 * version, an unknown variant, a grid that is not of the kind asked for. It is an
 * {@link InputFileError} (names the file and key) that also names the `feature` not supported.
 */
export class UnsupportedInputError extends InputFileError {
  readonly [markerSymbol] = true;
  /** What is not supported, e.g. `PineAPPL file version 1`. */
  readonly feature: string;

  constructor(options: {
    file: string;
    feature: string;
    problem: string;
    key?: string | undefined;
    cause?: unknown;
  }) {
    super({
      file: options.file,
      key: options.key,
      problem: `${options.feature} is not supported: ${options.problem}`,
      cause: options.cause,
    });
    this.name = 'UnsupportedInputError';
    this.feature = options.feature;
  }

  static override isInstance(error: unknown): error is UnsupportedInputError {
    return InputFileError.hasMarker(error, marker);
  }
}
