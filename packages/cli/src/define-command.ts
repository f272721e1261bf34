import { parseArgs, type ParseArgsConfig } from 'node:util';
import { FileSystemError, PartonfitError } from '@partonfit/core';
import type { Terminal } from './terminal.js';

/** Exit code for a command used wrongly (unknown option, bad value, missing argument). */
export const EXIT_USAGE = 2;
/** Exit code for a command that ran and failed (bad input file, impossible request, …). */
export const EXIT_FAILURE = 1;

/** The options of a command, as `node:util`'s `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/** The parseArgs configuration of a command with options `O`. */
interface ParseConfig<O extends CommandOptions> {
  args: string[];
  options: O;
  allowPositionals: true;
  strict: true;
}

/** What a command's `run` receives: the parsed option values and the positional arguments. */
export type ParsedCommand<O extends CommandOptions> = ReturnType<typeof parseArgs<ParseConfig<O>>>;

/**
 * A problem with how a command was called (a bad option value, a missing or extra argument):
 * printed as `partonfit <command>: <message>` with the usage line, exit code {@link EXIT_USAGE}.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A `partonfit` subcommand, ready to run. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Usage line, e.g. `partonfit check <runcard.yml>`. */
  readonly usage: string;
  /** What `--help` prints after the usage line and the summary, if anything. */
  readonly details: string | undefined;
  /**
   * Checks its arguments as {@link Command.run} does before running (`--help`, known options with
   * their values, the number of positional arguments), without running anything.
   *
   * @throws UsageError - for arguments `run` would refuse with {@link EXIT_USAGE}
   */
  readonly parse: (args: readonly string[]) => void;
  /**
   * Runs the command with its arguments (or, given `--help`, prints its usage); resolves to the
   * process exit code. With `debug`, a failure prints its stack trace too.
   */
  readonly run: (
    args: readonly string[],
    terminal: Terminal,
    options?: { readonly debug?: boolean },
  ) => Promise<number>;
}

/** What {@link defineCommand} makes a command from. */
export interface CommandDefinition<O extends CommandOptions> {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Usage line, e.g. `partonfit check <runcard.yml>`. */
  readonly usage: string;
  /**
   * More lines for `partonfit <command> --help`, after the usage and the summary: what the
   * command does beyond its summary (a rule, a formula, what each option changes).
   */
  readonly details?: string;
  /** The options, for `parseArgs` (strict: an unknown option is a usage error). */
  readonly options: O;
  /**
   * How many positional arguments the command takes (default 0), or the fewest and most;
   * another count is a usage error.
   */
  readonly positionals?: number | readonly [number, number];
  /**
   * Does the work. Throw a {@link UsageError} for a wrongly called command and let any
   * `PartonfitError` (a bad input file, an invalid runcard, …) propagate: both become one line on
   * standard error and an exit code. Resolving is success: exit code 0.
   */
  readonly run: (parsed: ParsedCommand<O>, terminal: Terminal) => Promise<void>;
}

/**
 * Ends a command with one line on standard error and an exit code of its own, for outcomes that
 * are neither success nor failure (a fit interrupted by a signal after writing its checkpoint).
 */
export class CommandExit extends Error {
  /** The process exit code. */
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'CommandExit';
    this.code = code;
  }
}

/** Whether `args` ask for help: `--help` or `-h` anywhere before a `--`, whatever else they hold. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** Whether `error` is how parseArgs rejects an unknown option or a missing value. */
function isParseArgsError(error: unknown): error is TypeError {
  return (
    error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')
  );
}

/**
 * The arguments of a command parsed strictly (an unknown option or a missing value throws
 * parseArgs' own error), with the number of positional arguments checked.
 *
 * @throws UsageError - for too few or too many positional arguments
 */
function parseCommandArgs<O extends CommandOptions>(
  definition: CommandDefinition<O>,
  args: readonly string[],
): ParsedCommand<O> {
  const { positionals = 0 } = definition;
  const parsed = parseArgs({
    args: [...args],
    options: definition.options,
    allowPositionals: true,
    strict: true,
  });
  const [fewest, most] = typeof positionals === 'number' ? [positionals, positionals] : positionals;
  const count = parsed.positionals.length;
  if (count < fewest || count > most) {
    const expected = most === 0 ? 'no' : fewest === most ? String(most) : `${fewest} to ${most}`;
    throw new UsageError(`expected ${expected} argument${most === 1 ? '' : 's'}, got ${count}`);
  }
  return parsed;
}

/**
 * A `partonfit` subcommand from its definition: answers `--help` (or `-h`) with the usage line,
 * the summary and the details; otherwise parses the arguments strictly, checks the number of positional
 * arguments, runs it, and turns what goes wrong into one line on standard error —
 * `partonfit <command>: <problem>` — and an exit code: {@link EXIT_USAGE} with the usage line for
 * a usage error, {@link EXIT_FAILURE} for a `PartonfitError` or a file-system error (a full disk,
 * a read-only folder: shown as a `FileSystemError` naming the path). Anything else is a bug in
 * partonfit: one line saying so, exit code {@link EXIT_FAILURE}. With `debug` every failure
 * prints its stack trace first.
 */
export function defineCommand<O extends CommandOptions>(definition: CommandDefinition<O>): Command {
  const { name, summary, usage, details } = definition;
  return {
    name,
    summary,
    usage,
    details,
    parse: (args) => {
      if (asksForHelp(args)) return;
      try {
        parseCommandArgs(definition, args);
      } catch (error) {
        throw isParseArgsError(error) ? new UsageError(error.message) : error;
      }
    },
    run: async (args, terminal, options) => {
      if (asksForHelp(args)) {
        terminal.out(
          `usage: ${usage}\n  ${summary}\n${details === undefined ? '' : `\n${details}`}`,
        );
        return 0;
      }
      try {
        await definition.run(parseCommandArgs(definition, args), terminal);
        return 0;
      } catch (error) {
        terminal.status?.('');
        if (options?.debug === true && error instanceof Error) {
          terminal.error(`${error.stack ?? String(error)}\n`);
        }
        if (error instanceof CommandExit) {
          terminal.error(`partonfit ${name}: ${error.message}\n`);
          return error.code;
        }
        if (error instanceof UsageError || isParseArgsError(error)) {
          terminal.error(`partonfit ${name}: ${error.message}\nusage: ${usage}\n`);
          return EXIT_USAGE;
        }
        const failure = FileSystemError.fromSystemError(error) ?? error;
        if (PartonfitError.isInstance(failure)) {
          terminal.error(`partonfit ${name}: ${failure.message}\n`);
          return EXIT_FAILURE;
        }
        terminal.error(
          `partonfit ${name}: internal error: ${error instanceof Error ? error.message : String(error)}\n` +
            (options?.debug === true
              ? ''
              : 'This is a bug in partonfit: please report it with the output of the same command run with --debug.\n'),
        );
        return EXIT_FAILURE;
      }
    },
  };
}
