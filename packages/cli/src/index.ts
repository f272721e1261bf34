/**
 * @partonfit/cli — the `partonfit` command line: thin commands over partonfit's packages. Its
 * library form runs a command line in-process, e.g. from a test or a notebook.
 *
 * @packageDocumentation
 */
export { helpText, runCli } from './run-cli.js';
export { processTerminal, type Terminal } from './terminal.js';
