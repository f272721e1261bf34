import { resolve } from 'node:path';
import {
  INTEGRABILITY_THRESHOLD,
  NSIGMA_DISCARD_ARCLENGTH,
  NSIGMA_DISCARD_CHI2,
  runPostfit,
} from '@partonfit/fit-folder';
import { defineCommand, UsageError } from './define-command.js';
import { positiveOption } from './option-values.js';

const USAGE = `partonfit postfit <fit folder> [--nrep N [--at-least-nrep]] [--chi2-threshold ${NSIGMA_DISCARD_CHI2}] [--arclength-threshold ${NSIGMA_DISCARD_ARCLENGTH}] [--integrability-threshold ${INTEGRABILITY_THRESHOLD}]`;

/**
 * `partonfit postfit <fit>`: upstream's replica selection (positivity, integrability above 0.5,
 * χ² and arc lengths more than 4σ above the mean) and the final set `<fit>/postfit/` with
 * `replica_0` the average (see `runPostfit`).
 */
export const postfitCommand = defineCommand({
  name: 'postfit',
  summary: 'select the replicas that pass the vetoes and write the final set with replica 0',
  usage: USAGE,
  options: {
    nrep: { type: 'string' },
    'at-least-nrep': { type: 'boolean', default: false },
    'chi2-threshold': { type: 'string', default: `${NSIGMA_DISCARD_CHI2}` },
    'arclength-threshold': { type: 'string', default: `${NSIGMA_DISCARD_ARCLENGTH}` },
    'integrability-threshold': { type: 'string', default: `${INTEGRABILITY_THRESHOLD}` },
  },
  positionals: 1,
  run: async ({ values, positionals: [folder] }, terminal) => {
    const nrep = values.nrep === undefined ? undefined : positiveOption('--nrep', values.nrep);
    const thresholds = {
      chi2: positiveOption('--chi2-threshold', values['chi2-threshold'], 'number'),
      arcLength: positiveOption('--arclength-threshold', values['arclength-threshold'], 'number'),
      integrability: positiveOption(
        '--integrability-threshold',
        values['integrability-threshold'],
        'number',
      ),
    };
    if (values['at-least-nrep'] && nrep === undefined) {
      throw new UsageError('--at-least-nrep needs --nrep');
    }
    const result = await runPostfit(resolve(folder), {
      ...(nrep === undefined ? {} : { nrep }),
      atLeastNrep: values['at-least-nrep'],
      thresholds,
      report: (line) => {
        terminal.out(`${line}\n`);
      },
    });
    terminal.out(
      `postfit: kept ${result.selected.length} replica(s), discarded ${result.discarded.length}; replica 0 is their average\n`,
    );
  },
});
