import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PartonfitError } from '@partonfit/core';
import { BACKEND_REQUESTS, describeBackendSelection, initBackend } from '@partonfit/backend';
import { exportFit, fitBackendRequest } from '@partonfit/trainer';
import { validBackendOption } from './backend-option.js';
import { EXIT_FAILURE, EXIT_USAGE, type Command } from './commands.js';

const USAGE = `partonfit export <fit folder> [--backend ${BACKEND_REQUESTS.join('|')}] [--tfjs]`;

/**
 * `partonfit export <fit>`: rebuilds every replica from its `weights.h5` and the fit's
 * `runcard.yml` and rewrites its `<fit>.exportgrid` and the PDF-derived entries of its
 * `<fit>.json` (see `exportFit`); with `--tfjs`, also saves each replica as a tfjs model in
 * `nnfit/replica_<r>/tfjs/`. Without `--backend` it runs on the backend that trained the fit
 * (when that is cpu or wasm), so the files come out identical to the fit's.
 */
export const exportCommand: Command = {
  name: 'export',
  summary: "re-create a fit's exportgrids and JSON summaries from its replicas' weights.h5",
  usage: USAGE,
  run: async (args, terminal) => {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: { backend: { type: 'string' }, tfjs: { type: 'boolean', default: false } },
    });
    if (positionals.length !== 1) {
      terminal.error(`usage: ${USAGE}\n`);
      return EXIT_USAGE;
    }
    if (!validBackendOption(values.backend, terminal)) return EXIT_USAGE;
    const fitFolder = resolve(positionals[0]);
    try {
      const request = values.backend ?? (await fitBackendRequest(fitFolder));
      terminal.error(`${describeBackendSelection(await initBackend(request))}\n`);
      const exported = await exportFit(fitFolder, {
        tfjs: values.tfjs,
        report: (line) => {
          terminal.out(`${line}\n`);
        },
      });
      terminal.out(`exported ${exported.length} replica(s) of ${fitFolder}\n`);
      return 0;
    } catch (error) {
      if (!PartonfitError.isInstance(error)) throw error;
      terminal.error(`partonfit export: ${error.message}\n`);
      return EXIT_FAILURE;
    }
  },
};
