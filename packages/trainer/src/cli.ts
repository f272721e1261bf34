import { runCli } from './cli/run-cli.js';
import { processTerminal } from './cli/terminal.js';

process.exitCode = await runCli(process.argv.slice(2), processTerminal);
