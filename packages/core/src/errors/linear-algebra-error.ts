import { PartonfitError } from './partonfit-error.js';

const marker = 'partonfit.error.LinearAlgebraError';
const markerSymbol = Symbol.for(marker);

/**
 * A matrix operation that has no answer for the given matrix: a covariance that is not positive
 * definite, a singular triangular factor, an eigensolver that did not converge. Names the
 * operation, the matrix size and the row where it failed.
 */
export class LinearAlgebraError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** The operation, e.g. `cholesky`. */
  readonly operation: string;
  /** The row (0-based) at which the operation failed, when there is one. */
  readonly row: number | undefined;

  constructor(options: {
    operation: string;
    problem: string;
    row?: number | undefined;
    cause?: unknown;
  }) {
    super({ message: `${options.operation}: ${options.problem}`, cause: options.cause });
    this.name = 'LinearAlgebraError';
    this.operation = options.operation;
    this.row = options.row;
  }

  static override isInstance(error: unknown): error is LinearAlgebraError {
    return PartonfitError.hasMarker(error, marker);
  }
}
