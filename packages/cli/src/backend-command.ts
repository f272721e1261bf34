import { parseArgs } from 'node:util';
import { PartonfitError } from '@partonfit/core';
import { BACKEND_REQUESTS, describeBackendSelection, initBackend } from '@partonfit/backend';
import { validBackendOption } from './backend-option.js';
import { EXIT_FAILURE, EXIT_USAGE, type Command } from './commands.js';

/** `partonfit backend [--backend …]`: shows which compute backend a fit would run on. */
export const backendCommand: Command = {
  name: 'backend',
  summary: 'show the compute backend a fit would use, and why faster ones were skipped',
  usage: `partonfit backend [--backend ${BACKEND_REQUESTS.join('|')}]`,
  run: async (args, terminal) => {
    const { values } = parseArgs({
      args: [...args],
      options: { backend: { type: 'string', default: 'auto' } },
      strict: true,
    });
    const request = values.backend;
    if (!validBackendOption(request, terminal)) return EXIT_USAGE;
    try {
      terminal.out(`${describeBackendSelection(await initBackend(request))}\n`);
      return 0;
    } catch (error) {
      if (!PartonfitError.isInstance(error)) throw error;
      terminal.error(`${error.message}\n`);
      return EXIT_FAILURE;
    }
  },
};
