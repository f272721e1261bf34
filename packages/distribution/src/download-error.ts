import { PartonfitError } from '@partonfit/core';

const marker = 'partonfit.error.DownloadError';
const markerSymbol = Symbol.for(marker);

/**
 * A download that failed: the server cannot be reached (offline, refused, timed out), answered
 * with an HTTP error (404 for a theory or set it does not have), or sent something that is not
 * what was asked for. Names the address.
 */
export class DownloadError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** The address that was being downloaded. */
  readonly url: string;
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;

  constructor(options: { url: string; problem: string; status?: number; cause?: unknown }) {
    super({ message: `${options.url}: ${options.problem}`, cause: options.cause });
    this.name = 'DownloadError';
    this.url = options.url;
    this.status = options.status;
  }

  static override isInstance(error: unknown): error is DownloadError {
    return PartonfitError.hasMarker(error, marker);
  }
}
