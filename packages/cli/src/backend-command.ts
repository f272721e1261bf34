import { BACKEND_REQUESTS, describeBackendSelection, initBackend } from '@partonfit/backend';
import { defineCommand } from './define-command.js';
import { backendOption } from './option-values.js';

/** `partonfit backend [--backend …]`: shows which compute backend a fit would run on. */
export const backendCommand = defineCommand({
  name: 'backend',
  summary: 'show the compute backend a fit would use, and why faster ones were skipped',
  usage: `partonfit backend [--backend ${BACKEND_REQUESTS.join('|')}]`,
  options: { backend: { type: 'string', default: 'auto' } },
  run: async ({ values }, terminal) => {
    const selection = await initBackend(backendOption(values.backend));
    terminal.out(`${describeBackendSelection(selection)}\n`);
  },
});
