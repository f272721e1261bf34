import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PartonfitError } from '@partonfit/core';
import {
  INTEGRABILITY_THRESHOLD,
  NSIGMA_DISCARD_ARCLENGTH,
  NSIGMA_DISCARD_CHI2,
  runPostfit,
} from '@partonfit/fit-folder';
import { EXIT_FAILURE, EXIT_USAGE, type Command } from './commands.js';

const USAGE = `partonfit postfit <fit folder> [--nrep N [--at-least-nrep]] [--chi2-threshold ${NSIGMA_DISCARD_CHI2}] [--arclength-threshold ${NSIGMA_DISCARD_ARCLENGTH}] [--integrability-threshold ${INTEGRABILITY_THRESHOLD}]`;

/** A command-line number, or the problem with it. */
function parseNumber(
  option: string,
  text: string | undefined,
  fallback: number | undefined,
  integer: boolean,
): number | undefined | string {
  if (text === undefined) return fallback;
  const value = Number(text);
  const ok = text.trim() !== '' && Number.isFinite(value) && value > 0;
  if (!ok || (integer && !Number.isInteger(value))) {
    return `${option}: expected a positive ${integer ? 'integer' : 'number'}, got '${text}'`;
  }
  return value;
}

/**
 * `partonfit postfit <fit>`: upstream's replica selection (positivity, integrability above 0.5,
 * χ² and arc lengths more than 4σ above the mean) and the final set `<fit>/postfit/` with
 * `replica_0` the average (see `runPostfit`).
 */
export const postfitCommand: Command = {
  name: 'postfit',
  summary: 'select the replicas that pass the vetoes and write the final set with replica 0',
  usage: USAGE,
  run: async (args, terminal) => {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        nrep: { type: 'string' },
        'at-least-nrep': { type: 'boolean', default: false },
        'chi2-threshold': { type: 'string' },
        'arclength-threshold': { type: 'string' },
        'integrability-threshold': { type: 'string' },
      },
    });
    const nrep = parseNumber('--nrep', values.nrep, undefined, true);
    const chi2 = parseNumber(
      '--chi2-threshold',
      values['chi2-threshold'],
      NSIGMA_DISCARD_CHI2,
      false,
    );
    const arcLength = parseNumber(
      '--arclength-threshold',
      values['arclength-threshold'],
      NSIGMA_DISCARD_ARCLENGTH,
      false,
    );
    const integrability = parseNumber(
      '--integrability-threshold',
      values['integrability-threshold'],
      INTEGRABILITY_THRESHOLD,
      false,
    );
    const problem = [nrep, chi2, arcLength, integrability].find(
      (value) => typeof value === 'string',
    );
    if (positionals.length !== 1 || problem !== undefined) {
      terminal.error(
        `${problem ?? 'partonfit postfit: expected one fit folder'}\nusage: ${USAGE}\n`,
      );
      return EXIT_USAGE;
    }
    if (values['at-least-nrep'] && nrep === undefined) {
      terminal.error(`--at-least-nrep needs --nrep\nusage: ${USAGE}\n`);
      return EXIT_USAGE;
    }
    try {
      const result = await runPostfit(resolve(positionals[0]), {
        ...(typeof nrep === 'number' ? { nrep } : {}),
        atLeastNrep: values['at-least-nrep'],
        thresholds: {
          chi2: chi2 as number,
          arcLength: arcLength as number,
          integrability: integrability as number,
        },
        report: (line) => {
          terminal.out(`${line}\n`);
        },
      });
      terminal.out(
        `postfit: kept ${result.selected.length} replica(s), discarded ${result.discarded.length}; replica 0 is their average\n`,
      );
      return 0;
    } catch (error) {
      if (!PartonfitError.isInstance(error)) throw error;
      terminal.error(`partonfit postfit: ${error.message}\n`);
      return EXIT_FAILURE;
    }
  },
};
