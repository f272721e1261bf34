import { PartonfitError } from './partonfit-error.js';

const marker = 'partonfit.error.InputFileError';
const markerSymbol = Symbol.for(marker);

/**
 * An input file (FK table, data, covariance, PDF grid, …) that cannot be read as what it claims
 * to be: truncated, wrong counts, non-numbers where numbers belong. Names the file and, where it
 * applies, the line and the key or section.
 */
export class InputFileError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** The file that was being read. */
  readonly file: string;
  /** The 1-based line of the problem, when the format has lines. */
  readonly line: number | undefined;
  /** The key, section or field of the problem, when the format has them. */
  readonly key: string | undefined;
  /** What is wrong, without the file, line and key the message starts with. */
  readonly problem: string;

  constructor(options: {
    file: string;
    problem: string;
    line?: number | undefined;
    key?: string | undefined;
    cause?: unknown;
  }) {
    const where = options.line === undefined ? options.file : `${options.file}:${options.line}`;
    const key = options.key === undefined ? '' : `${options.key}: `;
    super({ message: `${where}: ${key}${options.problem}`, cause: options.cause });
    this.name = 'InputFileError';
    this.file = options.file;
    this.line = options.line;
    this.key = options.key;
    this.problem = options.problem;
  }

  static override isInstance(error: unknown): error is InputFileError {
    return PartonfitError.hasMarker(error, marker);
  }
}
