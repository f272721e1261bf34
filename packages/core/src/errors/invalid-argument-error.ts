import { PartonfitError } from './partonfit-error.js';

const marker = 'partonfit.error.InvalidArgumentError';
const markerSymbol = Symbol.for(marker);

/** A function was called with an argument outside what it accepts. */
export class InvalidArgumentError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** The name of the argument. */
  readonly argument: string;

  constructor(options: { argument: string; problem: string; cause?: unknown }) {
    super({ message: `${options.argument}: ${options.problem}`, cause: options.cause });
    this.name = 'InvalidArgumentError';
    this.argument = options.argument;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return PartonfitError.hasMarker(error, marker);
  }
}
