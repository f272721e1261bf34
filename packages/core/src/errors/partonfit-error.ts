const marker = 'partonfit.error';
const markerSymbol = Symbol.for(marker);

/** Options shared by every partonfit error. */
export interface PartonfitErrorOptions {
  /** What went wrong, in words that name the file, key, line or shape involved. */
  readonly message: string;
  /** The lower-level error that caused this one, if any. */
  readonly cause?: unknown;
}

/**
 * The base class of every error partonfit throws on purpose.
 *
 * Errors are recognised with {@link PartonfitError.isInstance} rather than `instanceof`, which
 * keeps working when two copies of `@partonfit/core` are installed side by side.
 *
 * @example
 * ```ts
 * import { loadRuncard, RuncardError } from '@partonfit/core';
 *
 * try {
 *   await loadRuncard('/nonexistent/fit.yml');
 * } catch (error) {
 *   if (!RuncardError.isInstance(error)) throw error;
 *   console.error(error.message); // /nonexistent/fit.yml: 1 problem in the runcard …
 * }
 * ```
 */
export class PartonfitError extends Error {
  readonly [markerSymbol] = true;

  constructor({ message, cause }: PartonfitErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'PartonfitError';
  }

  /** Whether `error` is a partonfit error of any kind. */
  static isInstance(error: unknown): error is PartonfitError {
    return PartonfitError.hasMarker(error, marker);
  }

  /** Whether `error` carries the marker `name` (used by subclasses' `isInstance`). */
  protected static hasMarker(error: unknown, name: string): boolean {
    const symbol = Symbol.for(name);
    return (
      error !== null &&
      typeof error === 'object' &&
      symbol in error &&
      (error as Record<symbol, unknown>)[symbol] === true
    );
  }
}
