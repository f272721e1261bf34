import type { Terminal } from './terminal.js';

/** A `partonfit` subcommand. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Usage line, e.g. `partonfit check <runcard>`. */
  readonly usage: string;
  /** Runs the command; resolves to the process exit code. */
  readonly run: (args: readonly string[], terminal: Terminal) => Promise<number>;
}

/** Exit code for a command used wrongly (bad arguments, invalid runcard). */
export const EXIT_USAGE = 2;
/** Exit code for a command that ran and failed. */
export const EXIT_FAILURE = 1;
