import { PartonfitError } from './partonfit-error.js';

const marker = 'partonfit.error.BackendUnavailableError';
const markerSymbol = Symbol.for(marker);

/**
 * A compute backend was asked for by name but cannot be used here: its package is not
 * installed or failed to load. The message says how to install it.
 */
export class BackendUnavailableError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** The backend that was asked for: `tensorflow`, `native`, `wasm` or `cpu`. */
  readonly backend: string;
  /** The command that installs what is missing. */
  readonly installCommand: string;
  /** Each package that was tried, and why it could not be used. */
  readonly skipped: readonly { readonly packageName: string; readonly reason: string }[];

  constructor(options: {
    message: string;
    backend: string;
    installCommand: string;
    skipped?: readonly { readonly packageName: string; readonly reason: string }[];
    cause?: unknown;
  }) {
    super(options);
    this.name = 'BackendUnavailableError';
    this.backend = options.backend;
    this.installCommand = options.installCommand;
    this.skipped = options.skipped ?? [];
  }

  static override isInstance(error: unknown): error is BackendUnavailableError {
    return PartonfitError.hasMarker(error, marker);
  }
}
