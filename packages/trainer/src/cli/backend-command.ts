import { parseArgs } from 'node:util';
import {
  BACKEND_REQUESTS,
  describeBackendSelection,
  initBackend,
  PartonfitError,
  type BackendRequest,
} from '@partonfit/core';
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
    if (!(BACKEND_REQUESTS as readonly string[]).includes(request)) {
      terminal.error(
        `--backend: expected one of ${BACKEND_REQUESTS.join(', ')}, got '${request}'\n`,
      );
      return EXIT_USAGE;
    }
    try {
      terminal.out(`${describeBackendSelection(await initBackend(request as BackendRequest))}\n`);
      return 0;
    } catch (error) {
      if (!PartonfitError.isInstance(error)) throw error;
      terminal.error(`${error.message}\n`);
      return EXIT_FAILURE;
    }
  },
};
