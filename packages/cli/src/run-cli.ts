import { createRequire } from 'node:module';
import { backendCommand } from './backend-command.js';
import { cacheCommand } from './cache-command.js';
import { checkCommand } from './check-command.js';
import { evolveCommand } from './evolve-command.js';
import { exportCommand } from './export-command.js';
import { fitCommand } from './fit-command.js';
import { getCommand } from './get-command.js';
import { hyperoptCommand } from './hyperopt-command.js';
import { iterateCommand } from './iterate-command.js';
import { postfitCommand } from './postfit-command.js';
import { predictCommand } from './predict-command.js';
import { reportCommand } from './report-command.js';
import { statusCommand } from './status-command.js';
import { submitCommand } from './submit-command.js';
import { EXIT_USAGE, type Command } from './define-command.js';
import type { Terminal } from './terminal.js';

const COMMANDS: readonly Command[] = [
  checkCommand,
  fitCommand(version()),
  hyperoptCommand,
  exportCommand,
  postfitCommand,
  predictCommand,
  evolveCommand,
  reportCommand,
  iterateCommand,
  getCommand,
  submitCommand,
  statusCommand,
  cacheCommand,
  backendCommand,
];

/** The `partonfit` command called `name`, if there is one. */
export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}

function version(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}

/** The environment variable that turns on `--debug` for every command (any value but `0`). */
export const DEBUG_VARIABLE = 'PARTONFIT_DEBUG';

function isDebugVariableSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0';
}

/** The text of `partonfit --help`. */
export function helpText(): string {
  const options = [
    ['-h, --help', 'show this help, or a command’s usage with `partonfit <command> --help`'],
    ['-v, --version', 'show the version'],
    ['--debug', `on a failure, show the stack trace too (or set ${DEBUG_VARIABLE}=1)`],
  ] as const;
  const labels = COMMANDS.map((command) => command.name);
  const width =
    Math.max(...labels.map((label) => label.length), ...options.map(([label]) => label.length)) + 2;
  const row = (name: string, summary: string) => `  ${name.padEnd(width)}${summary}`;
  return [
    `partonfit ${version()} — neural-network fits of parton distribution functions, many replicas at once`,
    '',
    'Usage: partonfit <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => row(command.name, command.summary)),
    '',
    'Options:',
    ...options.map(([label, summary]) => row(label, summary)),
    '',
  ].join('\n');
}

/**
 * Runs the `partonfit` command line with `args` (without the node and script paths) and
 * resolves to the exit code: 0 on success, 1 when the work failed, 2 for a usage error.
 * `--debug` anywhere before `--` (or {@link DEBUG_VARIABLE}) shows the stack trace of a failure.
 */
export async function runCli(args: readonly string[], terminal: Terminal): Promise<number> {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  const debug = options.includes('--debug') || isDebugVariableSet(process.env[DEBUG_VARIABLE]);
  const [name = '--help', ...rest] = args.filter(
    (arg, i) => arg !== '--debug' || (end !== -1 && i > end),
  );
  if (name === '-h' || name === '--help' || name === 'help') {
    terminal.out(helpText());
    return 0;
  }
  if (name === '-v' || name === '--version') {
    terminal.out(`${version()}\n`);
    return 0;
  }
  const command = findCommand(name);
  if (command === undefined) {
    terminal.error(`partonfit: unknown command '${name}'; see \`partonfit --help\`\n`);
    return EXIT_USAGE;
  }
  return command.run(rest, terminal, { debug });
}
